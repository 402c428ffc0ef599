package io.blockscope.exporter.cli;

import io.blockscope.exporter.Log;
import java.io.IOException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Exit statuses for blockscope's own command-line tools (the agent's {@code attach} launcher, the
 * password hasher), with a guarantee that they cannot end a host.
 *
 * <p>Those tools live in the agent jar, next to code that runs inside other people's JVMs. A
 * script needs their exit status, which only {@code System.exit} can set; a host that called their
 * {@code main} (by reflection, a plugin loader, a test) must never be ended by it. So the exit
 * happens only when this JVM was started by that very command: its {@code sun.java.command} names
 * the tool's class, or a jar whose {@code Main-Class} is that class. Anywhere else the status is
 * logged and {@code main} simply returns.
 */
public final class ProcessExit {

  private ProcessExit() {}

  /** Ends the process with {@code status} if it was started as {@code entryPoint}'s command. */
  public static void exit(int status, Class<?> entryPoint) {
    if (isOwnProcess(System.getProperty("sun.java.command", ""), entryPoint.getName())) {
      System.exit(status);
    }
    Log.warn(entryPoint.getName() + ".main finished with status " + status
        + "; not exiting, because this JVM was not started by that command");
  }

  /** True when {@code javaCommand} (the {@code sun.java.command} form) launches {@code mainClass}. */
  static boolean isOwnProcess(String javaCommand, String mainClass) {
    String first = javaCommand.strip().split("\\s+", 2)[0];
    if (first.equals(mainClass)) {
      return true;
    }
    return first.endsWith(".jar") && mainClass.equals(mainClassOf(first));
  }

  private static String mainClassOf(String jar) {
    try (JarFile file = new JarFile(jar)) {
      Manifest manifest = file.getManifest();
      return manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
    } catch (IOException | SecurityException e) {
      return null;
    }
  }
}
