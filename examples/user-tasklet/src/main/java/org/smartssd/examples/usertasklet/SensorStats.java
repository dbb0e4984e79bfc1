package org.smartssd.examples.usertasklet;

/**
 * A sensor's statistics over the readings that count: how many, their sum, the sum of their
 * squares, the least and the greatest (temperatures in hundredths of a degree C).
 */
public record SensorStats(long sensor, long count, long sum, long sumOfSquares, long min,
                          long max) {
    public double mean() {
        return (double) sum / count;
    }

    /** The population variance, from the sums. */
    public double variance() {
        double m = mean();
        return (double) sumOfSquares / count - m * m;
    }

    /** These statistics and one more reading. */
    public SensorStats plus(long temperature) {
        return new SensorStats(sensor, count + 1, sum + temperature,
                sumOfSquares + temperature * temperature, Math.min(min, temperature),
                Math.max(max, temperature));
    }

    /** No readings yet. */
    public static SensorStats empty(long sensor) {
        return new SensorStats(sensor, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE);
    }

    @Override
    public String toString() {
        return String.format("sensor %d: %d readings, mean %.2f C, stddev %.2f C, min %.2f C, "
                + "max %.2f C", sensor, count, mean() / 100, Math.sqrt(variance()) / 100,
                min / 100.0, max / 100.0);
    }
}
