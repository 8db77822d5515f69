package io.ticketing.reservations.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time used so far, from Linux's {@code /proc}: by the service's process, and by every PostgreSQL process
 * (its backends and background workers) on this machine. Between two readings and per operation, it says where a
 * scenario's time goes on cores the two share with the load generator. Zero where {@code /proc} is missing.
 */
record CpuTime(double serviceMillis, double databaseMillis) {

    /** Linux's USER_HZ, the unit of {@code /proc/<pid>/stat}'s times; 100 on every common kernel. */
    private static final double TICKS_PER_SECOND = 100;

    static CpuTime now(long servicePid) {
        double database = 0;
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                String[] stat = stat(process);
                if (stat != null && stat[0].equals("postgres")) {
                    database += millis(stat);
                }
            }
        } catch (IOException e) {
            return new CpuTime(0, 0);
        }
        String[] service = stat(Path.of("/proc", Long.toString(servicePid)));
        return new CpuTime(service == null ? 0 : millis(service), database);
    }

    CpuTime since(CpuTime before) {
        return new CpuTime(serviceMillis - before.serviceMillis, databaseMillis - before.databaseMillis);
    }

    /** The command name, then the fields after it: utime and stime are the 12th and 13th of those. */
    private static String[] stat(Path process) {
        try {
            String line = Files.readString(process.resolve("stat"));
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            String[] rest = line.substring(close + 2).split(" ");
            String[] fields = new String[rest.length + 1];
            fields[0] = line.substring(open + 1, close);
            System.arraycopy(rest, 0, fields, 1, rest.length);
            return fields;
        } catch (IOException | RuntimeException e) {
            return null; // gone meanwhile
        }
    }

    private static double millis(String[] stat) {
        return (Long.parseLong(stat[12]) + Long.parseLong(stat[13])) * 1000 / TICKS_PER_SECOND;
    }
}
