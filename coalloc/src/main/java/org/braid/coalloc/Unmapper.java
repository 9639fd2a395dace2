package org.braid.coalloc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Unmaps a file mapping at once instead of whenever the garbage collector finds it: Java 17 has no
 * public way to, so this calls {@code sun.misc.Unsafe.invokeCleaner} (module jdk.unsupported, which
 * opens the package for exactly this; Lucene and Netty do the same). Without it mappings would pile
 * up until a collection, each one's pages counted in the process's resident memory; where it is
 * missing, callers read the file instead of mapping it.
 */
final class Unmapper {
  private static final MethodHandle CLEANER = find();

  private Unmapper() {}

  private static MethodHandle find() {
    try {
      Class<?> unsafe = Class.forName("sun.misc.Unsafe");
      Field f = unsafe.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return MethodHandles.lookup()
          .findVirtual(unsafe, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(f.get(null));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Whether {@link #unmap} can unmap. */
  static boolean available() {
    return CLEANER != null;
  }

  /** Unmaps a mapped buffer (which must not be used afterwards, nor any view of it). */
  static void unmap(ByteBuffer mapped) {
    try {
      CLEANER.invokeExact(mapped);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("cannot unmap", t);
    }
  }
}
