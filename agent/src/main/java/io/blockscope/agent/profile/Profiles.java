package io.blockscope.agent.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the profile to use: a built-in one by name (shipped under {@code profiles/} in the agent
 * jar and listed in {@code profiles/builtin.list}), a JSON file by path, or, for {@code auto}, the
 * first built-in profile whose {@code detect} classes the host can load.
 */
public final class Profiles {

    public static final String AUTO = "auto";
    private static final String DIRECTORY = "profiles/";

    private Profiles() {}

    /** The built-in profile names, in detection order. */
    public static List<String> builtIn() {
        String list = resource(DIRECTORY + "builtin.list");
        if (list == null) {
            throw new IllegalStateException("agent jar is missing profiles/builtin.list");
        }
        List<String> names = new ArrayList<>();
        for (String line : list.split("\n")) {
            String name = line.trim();
            if (!name.isEmpty() && !name.startsWith("#")) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * Resolves a {@code profile=} option. Empty for {@code auto} when no built-in profile matches
     * the host: the agent then has nothing to instrument.
     *
     * @param hostLoader where the host's classes are looked up, as resources: nothing is loaded
     */
    public static Optional<Profile> resolve(String option, ClassLoader hostLoader) {
        String choice = option == null || option.isBlank() ? AUTO : option.trim();
        if (choice.equals(AUTO)) {
            for (String name : builtIn()) {
                Profile profile = load(name);
                if (!profile.detect().isEmpty() && profile.detect().stream().allMatch(c -> present(c, hostLoader))) {
                    return Optional.of(profile);
                }
            }
            return Optional.empty();
        }
        if (builtIn().contains(choice)) {
            return Optional.of(load(choice));
        }
        Path path = Path.of(choice);
        if (Files.isRegularFile(path)) {
            try {
                return Optional.of(
                        ProfileParser.parse(Files.readString(path, StandardCharsets.UTF_8), path.toString()));
            } catch (IOException e) {
                throw new IllegalArgumentException("profile file " + path + " cannot be read: " + e.getMessage());
            }
        }
        throw new IllegalArgumentException("profile '" + choice + "' is neither auto, a built-in profile ("
                + String.join(", ", builtIn()) + ") nor a readable JSON file");
    }

    /** Loads a built-in profile by name. */
    public static Profile load(String name) {
        String json = resource(DIRECTORY + name + ".json");
        if (json == null) {
            throw new IllegalArgumentException(
                    "no built-in profile '" + name + "'; built-in: " + String.join(", ", builtIn()));
        }
        return ProfileParser.parse(json, name);
    }

    /** True when {@code loader} can see the class file of {@code className}, without loading it. */
    public static boolean present(String className, ClassLoader loader) {
        String resource = className.replace('.', '/') + ".class";
        return loader == null ? ClassLoader.getSystemResource(resource) != null : loader.getResource(resource) != null;
    }

    private static String resource(String name) {
        try (InputStream in = Profiles.class.getClassLoader().getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
