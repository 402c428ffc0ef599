package io.blockscope.exporter.auth;

import io.blockscope.exporter.cli.CommandFailed;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Prints the hash to put in {@code auth.password.hash}:
 *
 * <pre>
 * java -cp blockscope-agent.jar io.blockscope.exporter.auth.HashPassword [ALGORITHM [ITERATIONS]]
 * </pre>
 *
 * ALGORITHM is {@code pbkdf2-sha256} (default), {@code pbkdf2-sha512}, {@code sha256} or {@code
 * sha512}. The password is read twice from the console without echo, or once from the first line
 * of standard input when there is no console (for scripts: {@code printf '%s\n' "$PW" | java ...}).
 */
public final class HashPassword {

    private HashPassword() {}

    public static void main(String[] args) throws IOException {
        int status = run(
                args,
                System.console(),
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                System.out,
                System.err);
        CommandFailed.check("HashPassword", status);
    }

    static int run(String[] args, Console console, BufferedReader stdin, PrintStream out, PrintStream err)
            throws IOException {
        if (args.length > 2 || (args.length > 0 && args[0].startsWith("-"))) {
            err.println("usage: HashPassword [pbkdf2-sha256|pbkdf2-sha512|sha256|sha512 [ITERATIONS]]");
            return 2;
        }
        PasswordHash.Algorithm algorithm =
                args.length > 0 ? PasswordHash.Algorithm.fromLabel(args[0]) : PasswordHash.Algorithm.PBKDF2_SHA256;
        if (algorithm == null) {
            err.println("unknown algorithm '" + args[0] + "': use pbkdf2-sha256, pbkdf2-sha512, sha256 or sha512");
            return 2;
        }
        int iterations = algorithm.defaultIterations();
        if (args.length == 2) {
            try {
                iterations = Integer.parseInt(args[1]);
            } catch (NumberFormatException e) {
                iterations = -1;
            }
            if (!algorithm.iterated() || iterations < 1) {
                err.println(
                        algorithm.iterated()
                                ? "ITERATIONS must be a positive number, got '" + args[1] + "'"
                                : algorithm.label() + " takes no ITERATIONS");
                return 2;
            }
        }
        char[] password = readPassword(console, stdin, err);
        if (password == null) {
            return 1;
        }
        try {
            out.println(PasswordHash.create(algorithm, iterations, password));
            return 0;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private static char[] readPassword(Console console, BufferedReader stdin, PrintStream err) throws IOException {
        if (console != null) {
            char[] first = console.readPassword("password: ");
            char[] second = console.readPassword("again: ");
            if (first == null || second == null || !Arrays.equals(first, second)) {
                err.println("the two passwords differ (or input ended); nothing printed");
                return null;
            }
            Arrays.fill(second, '\0');
            return checkNotEmpty(first, err);
        }
        String line = stdin.readLine();
        if (line == null) {
            err.println("no password on standard input");
            return null;
        }
        return checkNotEmpty(line.toCharArray(), err);
    }

    private static char[] checkNotEmpty(char[] password, PrintStream err) {
        if (password.length == 0) {
            err.println("the password is empty; choose one");
            return null;
        }
        return password;
    }
}
