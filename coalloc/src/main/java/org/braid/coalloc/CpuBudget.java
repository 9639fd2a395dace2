package org.braid.coalloc;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether this process is using (nearly) every core of the machine, measured over windows of {@link
 * #WINDOW_NANOS} of its own CPU time: the sign that a download at memory speed is bound by the CPU,
 * not by its replicas' links (issue 17: four local mirrors, 2 cores). Then more connections only
 * add work (socket wake-ups, the file's write lock, their own threads) and take the CPU that the
 * whole-file hash, the one task that cannot be spread, needs. Thread-safe.
 */
class CpuBudget {
  /** Length of one measurement window. */
  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /** Share of all cores' time over a window from which the process counts as CPU-bound. */
  static final double BUSY = 0.85;

  /** No measurement: never busy (the dataset path, tests that do not ask for one). */
  static final CpuBudget NONE = new CpuBudget(() -> -1, System::nanoTime, 1);

  private final LongSupplier cpuNanos;
  private final LongSupplier wallNanos;
  private final int cores;
  private long windowStart = -1;
  private long cpuAtStart;
  private boolean busy;

  /**
   * A budget over {@code cores} cores reading the process's CPU time ({@code cpuNanos}, negative
   * when unknown) against the wall clock {@code wallNanos}.
   */
  CpuBudget(LongSupplier cpuNanos, LongSupplier wallNanos, int cores) {
    this.cpuNanos = cpuNanos;
    this.wallNanos = wallNanos;
    this.cores = Math.max(1, cores);
  }

  /**
   * This JVM's CPU time against the real clock. The management classes that tell it are loaded only
   * when {@link #busy} is first asked (a download at memory speed): loading them cost a run about
   * 35 ms (StartupClock); where the JVM cannot tell its CPU time, never busy.
   */
  static CpuBudget process() {
    return new CpuBudget(
        () -> ProcessCpu.BEAN == null ? -1 : ProcessCpu.BEAN.getProcessCpuTime(),
        System::nanoTime,
        Runtime.getRuntime().availableProcessors());
  }

  /** Holds the JVM's operating-system bean, loaded on first use. */
  private static final class ProcessCpu {
    static final OperatingSystemMXBean BEAN =
        ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    private ProcessCpu() {}
  }

  /** The process's CPU time in nanoseconds as measured; negative when unknown. */
  long cpuNanos() {
    return cpuNanos.getAsLong();
  }

  /** The cores of the machine (as the JVM sees them). */
  int cores() {
    return cores;
  }

  /**
   * Fetching connections worth keeping busy when the process is CPU-bound: one core for the hash,
   * the others for the connections, at least one.
   */
  int connectionsWhenBusy() {
    return Math.max(1, cores - 1);
  }

  /**
   * Whether the process used at least {@link #BUSY} of all cores over the last full window; false
   * until one has passed.
   */
  synchronized boolean busy() {
    long cpu = cpuNanos.getAsLong();
    if (cpu < 0) {
      return false;
    }
    long now = wallNanos.getAsLong();
    if (windowStart < 0) {
      windowStart = now;
      cpuAtStart = cpu;
      return false;
    }
    long wall = now - windowStart;
    if (wall >= WINDOW_NANOS) {
      busy = cpu - cpuAtStart >= BUSY * cores * wall;
      windowStart = now;
      cpuAtStart = cpu;
    }
    return busy;
  }
}
