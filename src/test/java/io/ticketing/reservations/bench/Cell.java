package io.ticketing.reservations.bench;

/**
 * What one scenario at one concurrency measured in one run, for comparing runs; CPU in ms an operation, the JIT
 * compiler's in percent of the service's.
 */
record Cell(String scenario, int clients, double opsPerSecond, double p99Millis, double requestP99Millis,
        double serviceCpuMillis, double compilerPercent, double databaseCpuMillis, long timeouts, long errors,
        long oversold, Double ceiling) {

    Double ratio() {
        return ceiling == null ? null : opsPerSecond / ceiling;
    }
}
