package org.braid.coalloc;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** The {@link BlockScheduler}'s one lock, with the condition its workers wait on for a change. */
final class SchedulerLock {
  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled on every change a waiting worker may care about. */
  final Condition changed = lock.newCondition();

  void lock() {
    lock.lock();
  }

  void unlock() {
    lock.unlock();
  }

  /** Runs the body with the lock held and returns its result. */
  <T> T read(Supplier<T> body) {
    lock.lock();
    try {
      return body.get();
    } finally {
      lock.unlock();
    }
  }

  /** Runs the body with the lock held. */
  void locked(Runnable body) {
    lock.lock();
    try {
      body.run();
    } finally {
      lock.unlock();
    }
  }

  /** Runs the change with the lock held and wakes every waiting worker. */
  void update(Runnable change) {
    lock.lock();
    try {
      change.run();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
