package org.smartssd.mapreduce;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;

/**
 * A {@link TaskletSpec} as job configuration, so that every task JVM rebuilds the same one:
 * {@code PREFIX.id}, {@code .layout} (text, see {@link #layoutToString}), {@code .params}
 * (base64), {@code .budget}, {@code .steps}.
 */
final class TaskletSpecs {
    private TaskletSpecs() {
    }

    static void store(Configuration conf, String prefix, TaskletSpec spec) {
        conf.setInt(prefix + ".id", spec.taskletId());
        conf.set(prefix + ".layout", layoutToString(spec.layout()));
        conf.set(prefix + ".params", Base64.getEncoder().encodeToString(spec.params()));
        conf.setInt(prefix + ".budget", spec.memoryBudget());
        conf.setLong(prefix + ".steps", spec.stepLimit());
    }

    /** The spec stored under {@code prefix}, or null when none is. */
    static TaskletSpec load(Configuration conf, String prefix) {
        String id = conf.get(prefix + ".id");
        if (id == null) {
            return null;
        }
        String layout = conf.get(prefix + ".layout");
        if (layout == null) {
            throw new IllegalArgumentException(prefix + ".layout is not set");
        }
        return new TaskletSpec(Integer.parseInt(id.trim()), layoutOf(layout),
                Base64.getDecoder().decode(conf.get(prefix + ".params", "")),
                conf.getInt(prefix + ".budget", 0), conf.getLong(prefix + ".steps", 0));
    }

    /**
     * {@code FIXED/size/fields} or {@code TEXT/maxLine/delim/sep/fields}, where delimiters
     * are byte values and fields are {@code offset:TYPE:width:shift:bits} joined by commas.
     */
    static String layoutToString(RecordLayout l) {
        StringBuilder sb = new StringBuilder(l.kind().name()).append('/').append(l.recordSize());
        if (l.kind() == RecordLayout.Kind.TEXT) {
            sb.append('/').append(l.lineDelim()).append('/').append(l.fieldSep());
        }
        sb.append('/');
        for (int i = 0; i < l.fields().size(); i++) {
            Field f = l.fields().get(i);
            sb.append(i == 0 ? "" : ",").append(f.offset()).append(':').append(f.type().name())
                    .append(':').append(f.width()).append(':').append(f.shift()).append(':')
                    .append(f.bits());
        }
        return sb.toString();
    }

    static RecordLayout layoutOf(String s) {
        String[] p = s.trim().split("/", -1);
        try {
            RecordLayout.Kind kind = RecordLayout.Kind.valueOf(p[0]);
            int fieldsAt = kind == RecordLayout.Kind.TEXT ? 4 : 2;
            if (p.length != fieldsAt + 1) {
                throw new IllegalArgumentException("expected " + (fieldsAt + 1) + " parts");
            }
            List<Field> fields = new ArrayList<>();
            if (!p[fieldsAt].isEmpty()) {
                for (String f : p[fieldsAt].split(",")) {
                    String[] v = f.split(":");
                    fields.add(new Field(Integer.parseInt(v[0]), FieldType.valueOf(v[1]),
                            Integer.parseInt(v[2]), Integer.parseInt(v[3]),
                            Integer.parseInt(v[4])));
                }
            }
            int size = Integer.parseInt(p[1]);
            return kind == RecordLayout.Kind.FIXED ? RecordLayout.fixed(size, fields)
                    : RecordLayout.text((char) Integer.parseInt(p[2]),
                            (char) Integer.parseInt(p[3]), size, fields);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad record layout '" + s + "': " + e.getMessage(),
                    e);
        }
    }
}
