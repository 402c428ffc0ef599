package io.blockscope.agent.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The classes a JVM loads first from the agent jar must load on Java 8: class-file version 52, and
 * every class they name in their constant pool is one Java 8 has (or one of their own). No JDK 8
 * runs here, so this is checked on the bytes; the agent jar's copies are checked by EntryJarIT.
 */
public class EntryBytecodeTest {

    public static final List<String> ENTRY_CLASSES = List.of(
            "io/blockscope/agent/entry/AgentEntry",
            "io/blockscope/agent/entry/LauncherEntry",
            "io/blockscope/agent/entry/JavaVersion");

    /** What the entry may refer to: all in Java 8's java.base, looked up by hand in the Java 8 API. */
    public static final Set<String> JAVA8_CLASSES = Set.of(
            "java/lang/Object",
            "java/lang/String",
            "java/lang/StringBuilder",
            "java/lang/System",
            "java/lang/Class",
            "java/lang/Package",
            "java/lang/ClassLoader",
            "java/lang/Integer",
            "java/lang/Throwable",
            "java/lang/NumberFormatException",
            "java/lang/reflect/Method",
            "java/lang/reflect/InvocationTargetException",
            "java/lang/instrument/Instrumentation",
            "java/io/PrintStream");

    @Test
    void entryClassesAreJava8ClassFilesReferringOnlyToJava8Classes() throws IOException {
        for (String name : ENTRY_CLASSES) {
            try (InputStream in = EntryBytecodeTest.class.getResourceAsStream("/" + name + ".class")) {
                ClassFile file = ClassFile.read(in);
                assertEquals(52, file.major, name + " must be Java 8 bytecode (52), is " + file.major);
                for (String referenced : file.classes) {
                    assertTrue(
                            referenced.startsWith("io/blockscope/agent/entry/")
                                    || referenced.startsWith("[")
                                    || JAVA8_CLASSES.contains(referenced),
                            name + " refers to " + referenced + ", which is not on the Java 8 list: resolve newer"
                                    + " classes by name only after the version check");
                }
            }
        }
    }

    @Test
    void theListIsNotVacuous() throws IOException {
        // The check above is only as good as the constant-pool reading: the entry does name these.
        try (InputStream in = EntryBytecodeTest.class.getResourceAsStream("/" + ENTRY_CLASSES.get(0) + ".class")) {
            Set<String> classes = ClassFile.read(in).classes;
            assertTrue(classes.contains("java/lang/instrument/Instrumentation"), classes.toString());
            assertTrue(classes.contains("io/blockscope/agent/entry/JavaVersion"), classes.toString());
        }
    }

    /** Just enough of the class-file format (JVMS 4.1, 4.4) to read the version and the class constants. */
    public static final class ClassFile {
        public final int major;
        public final Set<String> classes;

        private ClassFile(int major, Set<String> classes) {
            this.major = major;
            this.classes = classes;
        }

        public static ClassFile read(InputStream bytes) throws IOException {
            DataInputStream in = new DataInputStream(bytes);
            if (in.readInt() != 0xCAFEBABE) {
                throw new IOException("not a class file");
            }
            in.readUnsignedShort(); // minor
            int major = in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            int[] classNameIndex = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7 -> classNameIndex[i] = in.readUnsignedShort();
                    case 8, 16, 19, 20 -> in.readUnsignedShort();
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++; // 8-byte constants take two slots
                    }
                    default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
                }
            }
            Set<String> classes = new TreeSet<>();
            for (int i = 1; i < count; i++) {
                if (classNameIndex[i] != 0) {
                    classes.add(utf8[classNameIndex[i]]);
                }
            }
            return new ClassFile(major, classes);
        }
    }
}
