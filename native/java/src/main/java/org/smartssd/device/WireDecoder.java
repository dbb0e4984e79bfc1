package org.smartssd.device;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes one fixed-size reply into its record, by the layout the loaded JNI library reports
 * from the C field list it fills the reply from ({@link #layoutText}): the record declares
 * only its components, so Java cannot disagree with the library it talks to.
 *
 * <p>A record's components are the list's fields in C order, each named as its field in
 * camelCase; the reserved words and the name's length ({@link WireField#wireOnly}) have
 * none. A component whose type is a record takes the next fields by its own components
 * (ModelCounters' prices); components named as <em>host</em> components are not on the wire
 * and come from the caller (DriveInfo's transport). Kinds map onto component types without
 * loss of the wire's bits:
 * <ul>
 *   <li>{@code u8}, {@code u16}: {@code int} (zero-extended) or {@code boolean} (non-zero);
 *   <li>{@code u32}: {@code long} (zero-extended), {@code int} (the 32 bits, as today's
 *       records keep small counts: {@link Integer#toUnsignedLong} gives values from
 *       2<sup>31</sup>), {@code boolean} (non-zero), or an enum with a static {@code of(int)};
 *   <li>{@code i32}: {@code int};
 *   <li>{@code u64}: {@code long}, the 64 bits: values from 2<sup>63</sup> read negative, and
 *       {@link Long#toUnsignedString} and {@link Long#compareUnsigned} treat them as unsigned;
 *   <li>{@code str}: {@code String} up to the first NUL, trailing blanks removed;
 *       {@code cstr}: {@code String} up to the first NUL; {@code name}: {@code String} of the
 *       {@code len16} field's count of bytes (at most bytes - 1); all UTF-8.
 * </ul>
 * Anything else (a component without its field, a field without its component, a name out
 * of order, a type the kind does not map onto) fails when the decoder is built, at the class
 * init of {@link Replies}, with a message naming the reply, the record and the field.
 *
 * <p>The decoder is one method handle composed at build time from the canonical constructor
 * and one reader per field: a decode makes no reflective call and allocates only the record
 * (and its strings). It is a record so that its handle is a trusted final field, which the
 * JIT folds into a constant behind a {@code static final} decoder.
 *
 * @param reply  the C list's name, for messages
 * @param size   the reply's bytes on the wire (the stride of an array of them)
 * @param marks  further offsets the layout gives ({@code attrs}: where the SMART attributes
 *               start after the summary)
 * @param handle {@code (ByteBuffer b, int at, Object host) -> Record}
 */
record WireDecoder<R extends Record>(String reply, int size, Map<String, Integer> marks,
                                     MethodHandle handle) {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    // Little-endian whatever the buffer's order, without a duplicate of it; plain get
    // accepts misaligned indexes (the SMART attribute is packed).
    private static final VarHandle LE16 = MethodHandles.byteBufferViewVarHandle(short[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE32 = MethodHandles.byteBufferViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE64 = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** The layout of reply {@code which} as the loaded library reports it (the one door to
     *  the native call): lines "name kind offset bytes", "size bytes", and marks. */
    static String layoutText(int which) {
        return SmartSsdNative.replyLayout0(which);
    }

    /** The decoder of reply {@code which} (replyLayout0's number), called {@code reply}. */
    static <R extends Record> WireDecoder<R> of(int which, String reply, Class<R> type) {
        return of(which, reply, type, null);
    }

    /** The same, for a record with one component the host supplies, {@code hostComponent}. */
    static <R extends Record> WireDecoder<R> of(int which, String reply, Class<R> type,
                                                String hostComponent) {
        String text = layoutText(which);
        if (text == null) {
            throw new IllegalStateException(reply + ": the native library reports no layout for"
                    + " reply " + which + " (a library older than this jar?)");
        }
        return build(reply, text, type, hostComponent);
    }

    private static <R extends Record> WireDecoder<R> build(String reply, String layoutText,
                                                           Class<R> type, String hostComponent) {
        List<WireField> fields = new ArrayList<>();
        Map<String, Integer> marks = new HashMap<>();
        int size = -1;
        for (String line : layoutText.split("\n")) {
            String[] w = line.split(" ");
            if (w.length == 4) {
                fields.add(new WireField(w[0], w[1], Integer.parseInt(w[2]),
                        Integer.parseInt(w[3])));
            } else if (w.length == 2 && w[0].equals("size")) {
                size = Integer.parseInt(w[1]);
            } else if (w.length == 2) {
                marks.put(w[0], Integer.parseInt(w[1]));
            } else {
                throw new IllegalStateException(reply + ": unreadable layout line '" + line + "'");
            }
        }
        if (size < 0 || fields.isEmpty()) {
            throw new IllegalStateException(reply + ": the layout has no "
                    + (size < 0 ? "size" : "fields"));
        }
        if (hostComponent != null && Arrays.stream(type.getRecordComponents())
                .noneMatch(c -> c.getName().equals(hostComponent))) {
            throw new IllegalStateException(reply + ": " + type.getSimpleName()
                    + " has no host component " + hostComponent);
        }
        Binder binder = new Binder(reply, fields, hostComponent);
        MethodHandle h = binder.bind(type, true);
        binder.checkAllUsed(type);
        return new WireDecoder<>(reply, size, Map.copyOf(marks),
                h.asType(MethodType.methodType(Record.class, ByteBuffer.class, int.class,
                        Object.class)));
    }

    /** The reply at the start of b (absolute: b's position does not count). */
    R decode(ByteBuffer b) {
        return decode(b, 0, null);
    }

    /** The reply at byte {@code at} of b. */
    R decode(ByteBuffer b, int at) {
        return decode(b, at, null);
    }

    /** The reply at the start of b, with the record's host component {@code host}. */
    R decode(ByteBuffer b, Object host) {
        return decode(b, 0, host);
    }

    /** The reply at byte {@code at} of b, with the record's host component {@code host}. */
    @SuppressWarnings("unchecked")
    R decode(ByteBuffer b, int at, Object host) {
        try {
            return (R) (Record) handle.invokeExact(b, at, host);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(reply + ": decode failed", t);
        }
    }

    /** A further offset of the layout, e.g. {@code attrs}. */
    int mark(String name) {
        Integer at = marks.get(name);
        if (at == null) {
            throw new IllegalStateException(reply + ": the layout gives no '" + name + "'");
        }
        return at;
    }

    /** Matches components to fields in order and composes the constructor with readers. */
    private static final class Binder {
        private final String reply;
        private final List<WireField> all;
        private final List<WireField> fields;
        private final String host;
        private int next;

        Binder(String reply, List<WireField> all, String host) {
            this.reply = reply;
            this.all = all;
            this.fields = all.stream().filter(f -> !f.wireOnly()).toList();
            this.host = host;
        }

        /** {@code (ByteBuffer, int, Object) -> type} from the fields from {@code next} on. */
        MethodHandle bind(Class<?> type, boolean top) {
            RecordComponent[] rc = type.getRecordComponents();
            Class<?>[] params = Arrays.stream(rc).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new);
            MethodHandle ctor;
            try {
                ctor = LOOKUP.findConstructor(type, MethodType.methodType(void.class, params));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(reply + ": " + type.getName()
                        + "'s canonical constructor is not accessible", e);
            }
            MethodHandle[] producers = new MethodHandle[rc.length];
            for (int i = 0; i < rc.length; i++) {
                producers[i] = producer(type, rc[i], top);
            }
            // each parameter i becomes (ByteBuffer, int, Object); from the last, so that the
            // positions before it stay put
            for (int i = rc.length - 1; i >= 0; i--) {
                ctor = MethodHandles.collectArguments(ctor, i, producers[i]);
            }
            int[] reorder = new int[3 * rc.length];
            for (int i = 0; i < reorder.length; i++) {
                reorder[i] = i % 3;
            }
            return MethodHandles.permuteArguments(ctor,
                    MethodType.methodType(type, ByteBuffer.class, int.class, Object.class),
                    reorder);
        }

        private MethodHandle producer(Class<?> owner, RecordComponent c, boolean top) {
            Class<?> t = c.getType();
            if (top && c.getName().equals(host)) {
                MethodHandle id = MethodHandles.identity(Object.class)
                        .asType(MethodType.methodType(t, Object.class));
                return MethodHandles.dropArguments(id, 0, ByteBuffer.class, int.class);
            }
            if (t.isRecord()) {
                return bind(t, false);
            }
            String where = reply + ": " + owner.getSimpleName() + " component " + c.getName()
                    + " (" + t.getSimpleName() + ")";
            if (next == fields.size()) {
                throw new IllegalStateException(where + " has no field in the C list: its"
                        + " fields end before it");
            }
            WireField f = fields.get(next++);
            if (!f.componentName().equals(c.getName())) {
                throw new IllegalStateException(where + " where the C list has field " + f
                        + ", named " + f.componentName() + " in a record");
            }
            MethodHandle r = reader(f, t, where);
            return MethodHandles.dropArguments(r, 2, Object.class);
        }

        /** {@code (ByteBuffer, int at) -> t} reading field f of the reply at {@code at}. */
        private MethodHandle reader(WireField f, Class<?> t, String where) {
            String method = switch (f.kind()) {
                case "u8" -> t == int.class ? "u8" : t == boolean.class ? "u8Flag" : null;
                case "u16" -> t == int.class ? "u16" : t == boolean.class ? "u16Flag" : null;
                case "u32" -> t == long.class ? "u32" : t == int.class ? "i32"
                        : t == boolean.class ? "u32Flag" : t.isEnum() ? "i32" : null;
                case "i32" -> t == int.class ? "i32" : null;
                case "u64" -> t == long.class ? "u64" : null;
                case "str", "cstr", "name" -> t == String.class ? f.kind() : null;
                default -> throw new IllegalStateException(where + ": field " + f
                        + " has a kind this decoder does not know");
            };
            if (method == null) {
                throw new IllegalStateException(where + " cannot hold field " + f + " (" + f.kind()
                        + " maps onto " + switch (f.kind()) {
                            case "u8", "u16" -> "int or boolean";
                            case "u32" -> "long, int, boolean or an enum with of(int)";
                            case "i32" -> "int";
                            case "u64" -> "long";
                            default -> "String";
                        } + ")");
            }
            MethodHandle r;
            try {
                r = LOOKUP.unreflect(Arrays.stream(WireDecoder.class.getDeclaredMethods())
                        .filter(m -> m.getName().equals(method)).findFirst().orElseThrow());
                r = switch (method) {
                    case "name" -> MethodHandles.insertArguments(r, 2, f.offset(), f.bytes(),
                            lengthField(f, where).offset());
                    case "str", "cstr" -> MethodHandles.insertArguments(r, 2, f.offset(),
                            f.bytes());
                    default -> MethodHandles.insertArguments(r, 2, f.offset());
                };
                if (t.isEnum()) {
                    r = MethodHandles.filterReturnValue(r, LOOKUP.findStatic(t, "of",
                            MethodType.methodType(t, int.class)));
                }
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(where + " cannot hold field " + f + ": the enum "
                        + t.getSimpleName() + " has no static of(int) to map the code", e);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(where + ": " + e.getMessage(), e);
            }
            return r;
        }

        private WireField lengthField(WireField name, String where) {
            return all.stream().filter(x -> x.kind().equals("len16")).findFirst()
                    .orElseThrow(() -> new IllegalStateException(where + ": field " + name
                            + " has no len16 field giving its length"));
        }

        void checkAllUsed(Class<?> type) {
            if (next < fields.size()) {
                throw new IllegalStateException(reply + ": field " + fields.get(next)
                        + " of the C list has no component in " + type.getSimpleName()
                        + " (expected one named " + fields.get(next).componentName()
                        + " after the others)");
            }
        }
    }

    // ---- the readers: field at b[at + off], little-endian

    private static int u8(ByteBuffer b, int at, int off) {
        return Byte.toUnsignedInt(b.get(at + off));
    }

    private static boolean u8Flag(ByteBuffer b, int at, int off) {
        return b.get(at + off) != 0;
    }

    private static int u16(ByteBuffer b, int at, int off) {
        return Short.toUnsignedInt((short) LE16.get(b, at + off));
    }

    private static boolean u16Flag(ByteBuffer b, int at, int off) {
        return (short) LE16.get(b, at + off) != 0;
    }

    private static long u32(ByteBuffer b, int at, int off) {
        return Integer.toUnsignedLong((int) LE32.get(b, at + off));
    }

    private static int i32(ByteBuffer b, int at, int off) {
        return (int) LE32.get(b, at + off);
    }

    private static boolean u32Flag(ByteBuffer b, int at, int off) {
        return (int) LE32.get(b, at + off) != 0;
    }

    private static long u64(ByteBuffer b, int at, int off) {
        return (long) LE64.get(b, at + off);
    }

    private static String str(ByteBuffer b, int at, int off, int bytes) {
        String s = cstr(b, at, off, bytes);
        int n = s.length();
        while (n > 0 && s.charAt(n - 1) == ' ') {
            n--;
        }
        return s.substring(0, n);
    }

    private static String cstr(ByteBuffer b, int at, int off, int bytes) {
        byte[] raw = new byte[bytes];
        b.get(at + off, raw);
        int n = 0;
        while (n < bytes && raw[n] != 0) {
            n++;
        }
        return new String(raw, 0, n, StandardCharsets.UTF_8);
    }

    private static String name(ByteBuffer b, int at, int off, int bytes, int lenOff) {
        int n = Math.min(Short.toUnsignedInt((short) LE16.get(b, at + lenOff)), bytes - 1);
        byte[] raw = new byte[n];
        b.get(at + off, raw);
        return new String(raw, StandardCharsets.UTF_8);
    }
}
