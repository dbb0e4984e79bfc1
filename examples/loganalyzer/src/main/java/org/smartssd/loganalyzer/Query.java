package org.smartssd.loganalyzer;

import java.util.Locale;

/** Kang's two log queries ([Kang 2014, §6.5.3, Fig. 6.8, p. 78]). */
public enum Query {
    /** Accesses per region: one field per entry, summed per region. */
    Q1("accesses per region"),
    /** The top {@value TopTypes#N} file types per region: two fields per entry, ranked. */
    Q2("top " + TopTypes.N + " file types per region");

    private final String description;

    Query(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
