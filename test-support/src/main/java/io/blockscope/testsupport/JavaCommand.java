package io.blockscope.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of a child JVM: which java, JVM options, the built agent with its options, a class
 * path, the main class and its arguments, and environment changes. {@link #start()} runs it.
 */
public final class JavaCommand {

    private final Path java;
    private final List<String> options = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String classPath;
    private final List<String> main = new ArrayList<>();
    private Path log;

    private JavaCommand(Path java) {
        this.java = java;
    }

    /** A command run by {@code java}. */
    public static JavaCommand on(Path java) {
        return new JavaCommand(java);
    }

    /** A command run by the java of the JVM running the tests. */
    public static JavaCommand onTestJvm() {
        return on(testJava());
    }

    /** The java executable of the JVM running the tests. */
    public static Path testJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** The class path of the JVM running the tests (surefire's, when it runs them from a manifest-only jar). */
    public static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    public JavaCommand option(String option) {
        options.add(option);
        return this;
    }

    public JavaCommand options(List<String> more) {
        options.addAll(more);
        return this;
    }

    /** {@code -javaagent:} the built {@link AgentJar}, with {@code argument} after '=' unless it is null. */
    public JavaCommand agent(String argument) {
        return option("-javaagent:" + AgentJar.path() + (argument == null ? "" : "=" + argument));
    }

    public JavaCommand classPath(String entries) {
        this.classPath = entries;
        return this;
    }

    /** Sets an environment variable of the child; null removes one it would inherit. */
    public JavaCommand env(String key, String value) {
        environment.put(key, value);
        return this;
    }

    /** Removes the inherited environment variables whose names start with {@code prefix}. */
    public JavaCommand withoutEnv(String prefix) {
        System.getenv().keySet().stream().filter(k -> k.startsWith(prefix)).forEach(k -> environment.put(k, null));
        return this;
    }

    /** The main class (or {@code -jar FILE}, as two words) and its arguments. */
    public JavaCommand main(String mainClass, String... args) {
        main.clear();
        main.add(mainClass);
        main.addAll(List.of(args));
        return this;
    }

    /** Also copies everything the JVM prints to {@code file}. */
    public JavaCommand log(Path file) {
        this.log = file;
        return this;
    }

    public List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(options);
        if (classPath != null) {
            command.add("-cp");
            command.add(classPath);
        }
        command.addAll(main);
        return command;
    }

    public ChildProcess start() throws IOException {
        if (main.isEmpty()) {
            throw new IllegalStateException("no main class: " + command());
        }
        return ChildProcess.start(command(), environment, log);
    }
}
