package org.smartssd.scan.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** PlanFormat's field lists are builtin_tasklets.h's structs, read from the C header. */
class PlanFormatTest {
    private static final Path HEADER = Path.of(System.getProperty("user.dir")).resolve(
            "../firmware-tasklets/include/smartssd/builtin_tasklets.h").normalize();

    /** The fields of {@code struct name { ... };} in the header: name and size. */
    static List<PlanFormat.Field> headerFields(String struct) throws IOException {
        String text = Files.readString(HEADER);
        int at = text.indexOf("struct " + struct + " {");
        assertThat(at).as("struct %s in %s", struct, HEADER).isNotNegative();
        String body = text.substring(text.indexOf('{', at) + 1, text.indexOf("};", at));
        body = body.replaceAll("(?s)/\\*.*?\\*/", "");
        List<PlanFormat.Field> out = new ArrayList<>();
        Matcher m = Pattern.compile("uint(8|16|32|64)_t\\s+(\\w+)(?:\\[(\\d+)\\])?;")
                .matcher(body);
        while (m.find()) {
            int size = Integer.parseInt(m.group(1)) / 8;
            int n = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
            out.add(new PlanFormat.Field(m.group(2), size * n));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(PlanFormat.class)
    void javaFieldsAreTheHeadersFields(PlanFormat f) throws IOException {
        assertThat(f.fields()).isEqualTo(headerFields(f.struct()));
        String asserted = "sizeof(struct " + f.struct() + ") == " + f.bytes() + ",";
        assertThat(Files.readString(HEADER)).contains(asserted);
    }
}
