package io.blockscope.exporter.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessExitTest {

  @Test
  void ownProcessWhenTheCommandNamesTheClass() {
    assertTrue(ProcessExit.isOwnProcess("com.example.Tool a b", "com.example.Tool"));
    assertFalse(ProcessExit.isOwnProcess("com.example.Host com.example.Tool", "com.example.Tool"));
    assertFalse(ProcessExit.isOwnProcess("", "com.example.Tool"));
  }

  @Test
  void ownProcessWhenTheCommandIsAJarWhoseMainClassIsTheTool(@TempDir Path dir) throws Exception {
    Path tool = jar(dir.resolve("tool.jar"), "com.example.Tool");
    Path host = jar(dir.resolve("host.jar"), "com.example.Host");
    assertTrue(ProcessExit.isOwnProcess(tool + " attach 42", "com.example.Tool"));
    assertFalse(ProcessExit.isOwnProcess(host + " attach 42", "com.example.Tool"));
    assertFalse(ProcessExit.isOwnProcess(dir.resolve("missing.jar") + " x", "com.example.Tool"));
  }

  @Test
  void insideAnotherProgramItReturnsInsteadOfEndingTheJvm() {
    // This JVM was started by the test runner, not by ProcessExitTest: exiting would kill the
    // runner and fail the build, so reaching the next line is the assertion.
    ProcessExit.exit(3, ProcessExitTest.class);
    assertTrue(Thread.currentThread().isAlive());
  }

  private static Path jar(Path path, String mainClass) throws Exception {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
    try (OutputStream out = Files.newOutputStream(path); JarOutputStream jar = new JarOutputStream(out, manifest)) {
      jar.flush();
    }
    return path;
  }
}
