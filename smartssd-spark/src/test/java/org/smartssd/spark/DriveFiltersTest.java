package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.And;
import org.apache.spark.sql.connector.expressions.filter.Not;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.smartssd.device.tasklet.Predicate.Bytes;
import org.smartssd.device.tasklet.Predicate.Cmp;
import org.smartssd.device.tasklet.Predicate.Compare;
import org.smartssd.device.tasklet.Predicate.Match;
import org.smartssd.spark.DriveFilters.Cond;

/** The stateless translations: layouts, and V2 predicates into drive trees or nothing. */
class DriveFiltersTest {
    static final TableLayout MX = TableLayout.parse(SparkDrive.MIXED_LAYOUT,
            SparkDrive.MIXED_RECORD);
    static final TableLayout WC = TableLayout.parse("wc98", null);

    static Expression col(String name) {
        return Expressions.column(name);
    }

    static Expression lit(Object v) {
        if (v == null) {
            return new LiteralValue<>(null, DataTypes.LongType);
        }
        if (v instanceof String s) {
            return new LiteralValue<>(UTF8String.fromString(s), DataTypes.StringType);
        }
        if (v instanceof Integer i) {
            return new LiteralValue<>(i, DataTypes.IntegerType);
        }
        return new LiteralValue<>((Long) v, DataTypes.LongType);
    }

    static Predicate p(String name, Expression... children) {
        return new Predicate(name, children);
    }

    static Optional<Cond> tr(Predicate p, TableLayout l) {
        return DriveFilters.translate(p, l);
    }

    @Test
    void layoutsMapFieldsToTypesThatHoldEveryValue() {
        assertThat(WC.schema().toDDL()).isEqualTo("timestamp BIGINT NOT NULL,clientID BIGINT NOT "
                + "NULL,objectID BIGINT NOT NULL,size BIGINT NOT NULL,method SMALLINT NOT NULL,"
                + "status SMALLINT NOT NULL,type SMALLINT NOT NULL,server SMALLINT NOT NULL,"
                + "region TINYINT NOT NULL,statusCode TINYINT NOT NULL");
        assertThat(MX.schema().toDDL()).isEqualTo(SparkDrive.MIXED_DDL.replace(", ", ","));
        assertThat(TableLayout.parse("wc98", 256).recordSize()).isEqualTo(256);
        assertThatThrownBy(() -> TableLayout.parse("a:u32@0, a:u8@4", null))
                .hasMessageContaining("names column 'a' twice");
        assertThatThrownBy(() -> TableLayout.parse("a:u32@18", 20))
                .hasMessageContaining("does not fit a record of 20 bytes");
        assertThatThrownBy(() -> TableLayout.parse("a:u8@0&6", null))
                .hasMessageContaining("not a run of low bits");
        assertThatThrownBy(() -> TableLayout.parse("a:i32@0>>3", null))
                .hasMessageContaining("unsigned fields only");
        assertThatThrownBy(() -> TableLayout.fromOptions(Map.of("layout", "wc98",
                "recordSize", "x"))).hasMessageContaining("'recordSize' is not a number");
    }

    @Test
    void comparisonsBecomeDriveLeavesOnTheFieldsIndex() {
        int size = WC.indexOf("size");
        assertThat(tr(p(">", col("size"), lit(100L)), WC)).contains(
                new DriveFilters.Tree(new Cmp(Compare.GE, size, 101)));
        assertThat(tr(p("<", lit(100L), col("size")), WC)).contains(
                new DriveFilters.Tree(new Cmp(Compare.GE, size, 101)));
        assertThat(tr(p("=", col("region"), lit(3)), WC)).contains(
                new DriveFilters.Tree(new Cmp(Compare.EQ, WC.indexOf("region"), 3)));
    }

    @Test
    void constantsOutsideTheFieldFold() {
        // u32: -1 is below every value, 2^32 above; a 3-bit field ends at 7
        assertThat(tr(p(">", col("size"), lit(-1L)), WC)).contains(Cond.TRUE);
        assertThat(tr(p("<", col("size"), lit(0L)), WC)).contains(Cond.FALSE);
        assertThat(tr(p("<=", col("size"), lit(1L << 32)), WC)).contains(Cond.TRUE);
        assertThat(tr(p("=", col("region"), lit(8)), WC)).contains(Cond.FALSE);
        assertThat(tr(p("<>", col("region"), lit(8)), WC)).contains(Cond.TRUE);
        // signed i32: a 64-bit constant below its range
        assertThat(tr(p(">=", col("score"), lit(Long.MIN_VALUE)), MX)).contains(Cond.TRUE);
    }

    @Test
    void nullsFollowSqlThreeValuedLogic() {
        Predicate inWithNull = p("IN", col("type"), lit(1), lit(null));
        // x IN (1, NULL) is TRUE or NULL, never FALSE: its negation is never TRUE
        assertThat(tr(new Not(inWithNull), WC)).contains(Cond.FALSE);
        assertThat(tr(inWithNull, WC)).contains(
                new DriveFilters.Tree(new Cmp(Compare.EQ, WC.indexOf("type"), 1)));
        assertThat(tr(p("=", col("type"), lit(null)), WC)).contains(Cond.FALSE);
        assertThat(tr(new Not(p("=", col("type"), lit(null))), WC)).contains(Cond.FALSE);
        assertThat(tr(p("<=>", col("type"), lit(null)), WC)).contains(Cond.FALSE);
        assertThat(tr(new Not(p("<=>", col("type"), lit(null))), WC)).contains(Cond.TRUE);
        assertThat(tr(p("IS_NULL", col("type")), WC)).contains(Cond.FALSE);
        // NULL OR x is x where it matters (TRUE), and NOT of it needs both FALSE
        Predicate nullOr = new Or(p("=", col("type"), lit(null)), p("=", col("method"), lit(1)));
        assertThat(tr(nullOr, WC)).contains(
                new DriveFilters.Tree(new Cmp(Compare.EQ, WC.indexOf("method"), 1)));
        assertThat(tr(new Not(nullOr), WC)).contains(Cond.FALSE);
    }

    @Test
    void bytesFieldsTakeEqualityPrefixSuffixAndContainsOnly() {
        int name = MX.indexOf("name");
        assertThat(tr(p("STARTS_WITH", col("name"), lit("al")), MX)).contains(
                new DriveFilters.Tree(new Bytes(Match.PREFIX, name, "al".getBytes())));
        assertThat(tr(p("CONTAINS", col("name"), lit("ph")), MX)).contains(
                new DriveFilters.Tree(new Bytes(Match.CONTAINS, name, "ph".getBytes())));
        assertThat(tr(p("<", col("name"), lit("b")), MX)).isEmpty();
    }

    @Test
    void fixedWidthStringsAreComparedWithoutTheirNulPadding() {
        int name = MX.indexOf("name"); // bytes(6)
        // 'beta' is stored as beta\0\0: equality matches the padded field
        assertThat(tr(p("=", col("name"), lit("beta")), MX)).contains(new DriveFilters.Tree(
                new Bytes(Match.EQUALS, name, "beta\0\0".getBytes())));
        assertThat(tr(p("=", col("name"), lit("")), MX)).contains(new DriveFilters.Tree(
                new Bytes(Match.EQUALS, name, new byte[6])));
        // no value ends in NUL, none is longer than the field
        assertThat(tr(p("=", col("name"), lit("beta\0")), MX)).contains(Cond.FALSE);
        assertThat(tr(p("=", col("name"), lit("toolong")), MX)).contains(Cond.FALSE);
        // 'a' ends the value when the field ends with a, a\0, ... a\0\0\0\0\0
        List<org.smartssd.device.tasklet.Predicate> endings = new java.util.ArrayList<>();
        for (String e : List.of("a", "a\0", "a\0\0", "a\0\0\0", "a\0\0\0\0", "a\0\0\0\0\0")) {
            endings.add(new Bytes(Match.SUFFIX, name, e.getBytes()));
        }
        assertThat(tr(p("ENDS_WITH", col("name"), lit("a")), MX)).contains(
                new DriveFilters.Tree(new org.smartssd.device.tasklet.Predicate.Or(endings)));
        assertThat(tr(p("STARTS_WITH", col("name"), lit("")), MX)).contains(Cond.TRUE);
        // a NUL at the end of a prefix, substring or suffix has no exact drive match
        assertThat(tr(p("STARTS_WITH", col("name"), lit("al\0")), MX)).isEmpty();
        assertThat(tr(p("ENDS_WITH", col("name"), lit("a\0")), MX)).isEmpty();
        // wider than MAX_SUFFIX_PADDINGS paddings: Spark's
        TableLayout wide = TableLayout.parse("s:bytes(40)@0", null);
        assertThat(tr(p("ENDS_WITH", col("s"), lit("x")), wide)).isEmpty();
    }

    @Test
    void anyUntranslatablePartLeavesTheWholePredicateToSpark() {
        Predicate mod = p("=", new org.apache.spark.sql.connector.expressions
                .GeneralScalarExpression("%", new Expression[] {col("size"), lit(7L)}), lit(1L));
        assertThat(tr(mod, WC)).isEmpty();
        assertThat(tr(new And(mod, p("=", col("method"), lit(1))), WC)).isEmpty();
        assertThat(tr(new Or(p("=", col("method"), lit(1)), mod), WC)).isEmpty();
        assertThat(tr(p("=", col("size"), col("clientID")), WC)).isEmpty();
        assertThat(tr(p("=", col("nosuch"), lit(1L)), WC)).isEmpty();
    }

    @Test
    void neverIsAComparisonNoValueMeets() {
        org.smartssd.device.tasklet.Predicate never = DriveFilters.tree(Cond.FALSE, WC);
        assertThat(never).isEqualTo(new Cmp(Compare.LT, 0, 0));
        assertThat(DriveFilters.tree(Cond.TRUE, WC)).isNull();
        TableLayout mxSigned = TableLayout.parse("s:i64@0", null);
        assertThat(DriveFilters.tree(Cond.FALSE, mxSigned))
                .isEqualTo(new Cmp(Compare.LT, 0, Long.MIN_VALUE));
    }
}
