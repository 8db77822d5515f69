package io.ticketing.reservations.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time used so far, from Linux's {@code /proc}: by the service's process, by its JIT compiler threads (part of
 * the service's), and by every PostgreSQL process (its backends and background workers) on this machine. Between
 * two readings and per operation, it says where a scenario's time goes on cores the two share with the load
 * generator. Zero where {@code /proc} is missing.
 */
record CpuTime(double serviceMillis, double compilerMillis, double databaseMillis) {

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
            return new CpuTime(0, 0, 0);
        }
        Path service = Path.of("/proc", Long.toString(servicePid));
        String[] serviceStat = stat(service);
        return new CpuTime(serviceStat == null ? 0 : millis(serviceStat), compilerMillis(service), database);
    }

    /** HotSpot's compiler threads are named "C1 CompilerThread0" and so on; the kernel keeps 15 characters. */
    private static double compilerMillis(Path service) {
        double compiler = 0;
        try (Stream<Path> threads = Files.list(service.resolve("task"))) {
            for (Path thread : threads.toList()) {
                String[] stat = stat(thread);
                if (stat != null && stat[0].matches("C[12] CompilerThre.*")) {
                    compiler += millis(stat);
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return compiler;
    }

    CpuTime since(CpuTime before) {
        return new CpuTime(serviceMillis - before.serviceMillis, compilerMillis - before.compilerMillis,
                databaseMillis - before.databaseMillis);
    }

    /** The compiler's share of the service's CPU, in percent (0 without any). */
    double compilerPercent() {
        return serviceMillis <= 0 ? 0 : 100 * compilerMillis / serviceMillis;
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
