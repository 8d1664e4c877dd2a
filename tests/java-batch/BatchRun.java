// Runs many small Java programs in one JVM, for the tests: starting a JVM
// (and javac) per program made the fixture runs minutes of CI under load.
// Each job is compiled in memory (javax.tools) and run in a class loader of
// its own (fresh statics, no class shared with another job), with its own
// system properties, stdout and stderr, as `java FILE.java` (source-file
// mode) or `javac -d DIR ...; java -cp DIR MAIN` would run it:
// exit status 0 when main returns, 1 on an uncaught exception (printed as
// the JVM prints it) or a compile error. A job that calls System.exit ends
// this JVM with its status; the driver (batch.rs) then takes that status
// as the job's and starts a new JVM at the next job.
//
// java BatchRun.java JOBS OUT FIRST
//   JOBS: lines `job`, then `main CLASS` (optional: else the first class of
//   the first source, as source-file mode runs), `prop KEY=VALUE`,
//   `source PATH`. Job N (from 0) writes OUT/N.out and OUT/N.err as it
//   runs, OUT/N.started before it starts and OUT/N.status after it ends.

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class BatchRun {
    static final class Job {
        String main;
        final List<String[]> props = new ArrayList<>();
        final List<File> sources = new ArrayList<>();
    }

    /// Class files written by the compiler, kept in memory.
    static final class Classes extends ForwardingJavaFileManager<StandardJavaFileManager> {
        final Map<String, ByteArrayOutputStream> bytes = new HashMap<>();

        Classes(StandardJavaFileManager files) {
            super(files);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(
                Location location, String name, JavaFileObject.Kind kind, FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + name.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    bytes.put(name, out);
                    return out;
                }
            };
        }
    }

    static final class Loader extends ClassLoader {
        final Map<String, ByteArrayOutputStream> bytes;

        Loader(Map<String, ByteArrayOutputStream> bytes) {
            // The platform loader as parent: a job sees the JDK, never this
            // runner's classes nor another job's.
            super(ClassLoader.getPlatformClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream b = bytes.get(name);
            if (b == null) throw new ClassNotFoundException(name);
            byte[] code = b.toByteArray();
            return defineClass(name, code, 0, code.length);
        }
    }

    static List<Job> read(Path jobs) throws IOException {
        List<Job> out = new ArrayList<>();
        for (String line : Files.readAllLines(jobs)) {
            if (line.equals("job")) {
                out.add(new Job());
            } else if (line.startsWith("main ")) {
                out.get(out.size() - 1).main = line.substring(5);
            } else if (line.startsWith("prop ")) {
                out.get(out.size() - 1).props.add(line.substring(5).split("=", 2));
            } else if (line.startsWith("source ")) {
                out.get(out.size() - 1).sources.add(new File(line.substring(7)));
            } else if (!line.isEmpty()) {
                throw new IllegalArgumentException("bad job line: " + line);
            }
        }
        return out;
    }

    // The streams of the running job, flushed if it ends the JVM.
    static PrintStream jobOut, jobErr;

    public static void main(String[] args) throws Exception {
        List<Job> jobs = read(Path.of(args[0]));
        Path dir = Path.of(args[1]);
        int first = Integer.parseInt(args[2]);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (jobOut != null) jobOut.flush();
            if (jobErr != null) jobErr.flush();
        }));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        PrintStream realOut = System.out, realErr = System.err;
        for (int n = first; n < jobs.size(); n++) {
            Files.writeString(dir.resolve(n + ".started"), "");
            try (PrintStream out = new PrintStream(new FileOutputStream(dir.resolve(n + ".out").toFile()), true);
                    PrintStream err = new PrintStream(new FileOutputStream(dir.resolve(n + ".err").toFile()), true)) {
                jobOut = out;
                jobErr = err;
                System.setOut(out);
                System.setErr(err);
                int status;
                try {
                    status = run(javac, jobs.get(n), dir, err);
                } finally {
                    System.setOut(realOut);
                    System.setErr(realErr);
                    jobOut = null;
                    jobErr = null;
                }
                Files.writeString(dir.resolve(n + ".status"), Integer.toString(status));
            }
        }
    }

    static int run(JavaCompiler javac, Job job, Path dir, PrintStream err) throws Exception {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null);
        Classes classes = new Classes(files);
        // An empty class and source path: a job sees only its sources.
        String empty = dir.toString();
        JavacTask task = (JavacTask) javac.getTask(
                new StringWriter(), classes, diagnostics,
                List.of("-proc:none", "-nowarn", "-classpath", empty, "-sourcepath", empty),
                null, files.getJavaFileObjectsFromFiles(job.sources));
        String main = job.main;
        for (CompilationUnitTree unit : task.parse()) {
            for (Tree type : unit.getTypeDecls()) {
                if (main == null && type instanceof ClassTree c) {
                    String pkg = unit.getPackageName() == null ? "" : unit.getPackageName() + ".";
                    main = pkg + c.getSimpleName();
                }
            }
        }
        boolean compiled = task.generate() != null && !hasErrors(diagnostics);
        if (!compiled || main == null) {
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                err.println(d);
            }
            err.println("error: compilation failed");
            return 1;
        }
        Map<String, String> saved = new HashMap<>();
        for (String[] p : job.props) {
            saved.put(p[0], System.getProperty(p[0]));
            System.setProperty(p[0], p[1]);
        }
        try {
            Class<?> c = Class.forName(main, true, new Loader(classes.bytes));
            Method m = c.getMethod("main", String[].class);
            m.setAccessible(true);
            m.invoke(null, (Object) new String[0]);
            return 0;
        } catch (InvocationTargetException e) {
            err.print("Exception in thread \"main\" ");
            e.getCause().printStackTrace(err);
            return 1;
        } catch (ExceptionInInitializerError e) {
            err.print("Exception in thread \"main\" ");
            e.printStackTrace(err);
            return 1;
        } finally {
            for (Map.Entry<String, String> p : saved.entrySet()) {
                if (p.getValue() == null) System.clearProperty(p.getKey());
                else System.setProperty(p.getKey(), p.getValue());
            }
        }
    }

    static boolean hasErrors(DiagnosticCollector<JavaFileObject> diagnostics) {
        return diagnostics.getDiagnostics().stream().anyMatch(d -> d.getKind() == Diagnostic.Kind.ERROR);
    }
}
