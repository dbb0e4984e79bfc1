package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {
    @ParameterizedTest
    @CsvSource({"4096, 4096", "64K, 65536", "256M, 268435456", "2G, 2147483648",
        "1t, 1099511627776", "16MiB, 16777216", "512B, 512"})
    void parses(String text, long bytes) {
        assertThat(Sizes.parse(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "M", "-5", "0", "12Q", "99999999999T"})
    void rejects(String text) {
        assertThatThrownBy(() -> Sizes.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
