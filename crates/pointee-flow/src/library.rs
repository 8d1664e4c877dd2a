//! Effects of C library functions that have no body in the program.
//!
//! Each entry says what the call returns and what it does to memory, in terms
//! the solver applies directly to the caller's state. A function that is in
//! neither the program nor this table gets the unknown-call rule (see
//! `docs/c-engine.md`).

/// What a library call does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Returns a fresh heap object named by the call site (and possibly
    /// `NULL`, by the `malloc_may_fail` setting).
    Alloc,
    /// `calloc`: like `Alloc`, and the object's pointers start `NULL`.
    AllocZeroed,
    /// `posix_memalign(&p, ..)`: stores a fresh heap object into `*arg`.
    AllocOut(usize),
    /// `realloc(p, n)`: a fresh object holding `*p`'s contents, or `p`
    /// itself, or `NULL`; `*p` may be freed.
    Realloc,
    /// `free(p)`: what `p` points to becomes `freed`.
    Free,
    /// Copies the pointers stored in `*src` into `*dst`; returns `dst` when
    /// `ret`.
    Copy { dst: usize, src: usize, ret: bool },
    /// `memset(d, 0, n)`: pointers in `*d` may become `NULL`; returns `d`.
    Set { dst: usize, ret: bool },
    /// Returns its argument (`strcpy`, `strcat`, ...).
    RetArg(usize),
    /// Returns its argument, a fresh heap object (when the argument is
    /// `NULL`) or `NULL` (`getcwd`, `realpath`).
    RetArgOrAlloc(usize),
    /// Returns a value the program handed over where the analysis does not
    /// follow it (`unknown`), with no other effect: `va_arg` (the variadic
    /// arguments of a call escape at the call), `dlsym` (calling the
    /// result is an unknown call).
    RetUnknown,
    /// Returns a pointer into its argument, or `NULL` (`strchr`, ...).
    RetInto(usize),
    /// `strtol(s, &end, ..)`: stores a pointer into `*s` through `end`.
    EndPtr { src: usize, out: usize },
    /// Returns a library-owned object (or `NULL`): `FILE`, `getenv`, ...
    Object(&'static str),
    /// Calls the function pointer argument `f` with the given arguments
    /// (argument indices; `None` for a non-pointer), then returns `ret`.
    Callback {
        f: usize,
        args: [Option<usize>; 2],
        ret: CbRet,
    },
    /// `atexit(f)`: `f` runs after `main` returns.
    AtExit(usize),
    /// Does not return (`exit`, `abort`).
    NoReturn,
    /// No pointer effect; the result holds no pointer.
    Pure,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CbRet {
    Nothing,
    /// `bsearch`: a pointer into argument 1's array, or `NULL`.
    Into(usize),
    /// `signal`: the previous handler (`NULL` or a handler given before).
    Handler,
}

/// The arguments (by index) a library function reads or writes through:
/// passing `NULL`, a freed or an uninitialised pointer there is undefined
/// behaviour (C11 7.1.4 for the string and stdio functions, 7.24.1 for
/// `mem*` even with a zero length). Arguments the standard allows to be
/// `NULL` (`free`, `realloc`'s first, `snprintf`'s buffer with a zero size,
/// `strtok`'s first, `fflush`) are not listed. Checkers read this column;
/// the engine does not.
pub fn dereferenced_args(name: &str) -> &'static [usize] {
    match name {
        "memcpy" | "memmove" | "mempcpy" | "memcmp" | "bcopy" | "strcpy" | "strncpy" | "strcat"
        | "strncat" | "stpcpy" | "stpncpy" | "strlcpy" | "strlcat" | "strcmp" | "strncmp"
        | "strcasecmp" | "strncasecmp" | "strcoll" | "strspn" | "strcspn" | "strstr"
        | "strpbrk" | "strcasestr" | "fputs" | "fprintf" | "vfprintf" | "sprintf" | "vsprintf"
        | "fscanf" | "sscanf" | "fopen" | "strsep" | "rename" => &[0, 1],
        "memset" | "bzero" | "explicit_bzero" | "memchr" | "memrchr" | "strlen" | "strnlen"
        | "strdup" | "strndup" | "strchr" | "strrchr" | "index" | "rindex" | "atoi" | "atol"
        | "atoll" | "atof" | "strtol" | "strtoul" | "strtoll" | "strtoull" | "strtod"
        | "strtof" | "strtold" | "puts" | "printf" | "vprintf" | "scanf" | "fclose" | "fgetc"
        | "getc" | "feof" | "ferror" | "clearerr" | "fseek" | "ftell" | "rewind" | "fileno"
        | "remove" | "getenv" | "opendir" | "readdir" | "closedir" => &[0],
        "fread" | "fwrite" => &[0, 3],
        "fgets" => &[0, 2],
        "fputc" | "putc" | "ungetc" | "strtok" => &[1],
        "snprintf" | "vsnprintf" => &[2],
        "strtok_r" => &[1, 2],
        _ => &[],
    }
}

/// The table. Names are matched exactly.
pub fn effect(name: &str) -> Option<Effect> {
    use Effect::*;
    Some(match name {
        "malloc" | "aligned_alloc" | "valloc" | "memalign" | "pvalloc" | "alloca" | "strdup"
        | "strndup" | "xmalloc" | "xstrdup" => Alloc,
        "calloc" | "xcalloc" => AllocZeroed,
        "posix_memalign" => AllocOut(0),
        "realloc" | "reallocarray" | "xrealloc" => Realloc,
        "free" | "cfree" => Free,
        "memcpy" | "memmove" | "mempcpy" => Copy {
            dst: 0,
            src: 1,
            ret: true,
        },
        "bcopy" => Copy {
            dst: 1,
            src: 0,
            ret: false,
        },
        "memset" => Set { dst: 0, ret: true },
        "bzero" | "explicit_bzero" => Set { dst: 0, ret: false },
        "strcpy" | "strncpy" | "strcat" | "strncat" | "stpcpy" | "stpncpy" | "strlcpy" | "gets"
        | "fgets" | "wcscpy" | "mktemp" => RetArg(0),
        // `localtime_r(&t, &tm)` returns `&tm` (or `NULL`, not tracked,
        // as for `strcpy`).
        "gmtime_r" | "localtime_r" => RetArg(1),
        "getcwd" => RetArgOrAlloc(0),
        "realpath" => RetArgOrAlloc(1),
        // `getline(&line, &n, f)` may store a fresh buffer into `line`.
        "getline" | "getdelim" => AllocOut(0),
        "va_arg" | "dlsym" => RetUnknown,
        "strchr" | "strrchr" | "strstr" | "strpbrk" | "memchr" | "memrchr" | "index" | "rindex"
        | "strcasestr" | "strtok" | "strtok_r" | "strsep" | "memmem" => RetInto(0),
        "strtol" | "strtoul" | "strtoll" | "strtoull" | "strtod" | "strtof" | "strtold"
        | "strtoimax" | "strtoumax" => EndPtr { src: 0, out: 1 },
        "fopen" | "fdopen" | "freopen" | "tmpfile" | "popen" | "fmemopen" => Object("FILE"),
        "getenv" | "secure_getenv" => Object("environment string"),
        "strerror" => Object("strerror string"),
        "strsignal" | "dlerror" => Object("library string"),
        "dlopen" => Object("shared object"),
        "localeconv" => Object("struct lconv"),
        "opendir" | "fdopendir" => Object("DIR"),
        "readdir" => Object("dirent"),
        "getpwnam" | "getpwuid" => Object("struct passwd"),
        "getgrnam" | "getgrgid" => Object("struct group"),
        "localtime" | "gmtime" => Object("struct tm"),
        "ctime" | "asctime" => Object("time string"),
        "setlocale" | "tmpnam" | "getlogin" | "ttyname" => Object("library string"),
        "__errno_location" => Object("errno"),
        "pthread_once" => Callback {
            f: 1,
            args: [None, None],
            ret: CbRet::Nothing,
        },
        "qsort" => Callback {
            f: 3,
            args: [Some(0), Some(0)],
            ret: CbRet::Nothing,
        },
        "bsearch" => Callback {
            f: 4,
            args: [Some(0), Some(1)],
            ret: CbRet::Into(1),
        },
        "signal" | "sigset" => Callback {
            f: 1,
            args: [None, None],
            ret: CbRet::Handler,
        },
        "pthread_create" => Callback {
            f: 2,
            args: [Some(3), None],
            ret: CbRet::Nothing,
        },
        "atexit" | "at_quick_exit" => AtExit(0),
        "exit" | "_exit" | "_Exit" | "abort" | "quick_exit" | "__assert_fail" | "longjmp"
        | "_longjmp" | "siglongjmp" | "pthread_exit" => NoReturn,
        "printf"
        | "fprintf"
        | "sprintf"
        | "snprintf"
        | "vprintf"
        | "vfprintf"
        | "vsprintf"
        | "vsnprintf"
        | "puts"
        | "fputs"
        | "putchar"
        | "fputc"
        | "putc"
        | "fclose"
        | "fflush"
        | "fread"
        | "fwrite"
        | "scanf"
        | "fscanf"
        | "sscanf"
        | "strlen"
        | "strnlen"
        | "strcmp"
        | "strncmp"
        | "strcasecmp"
        | "strncasecmp"
        | "memcmp"
        | "strcoll"
        | "strspn"
        | "strcspn"
        | "atoi"
        | "atol"
        | "atoll"
        | "atof"
        | "abs"
        | "labs"
        | "llabs"
        | "rand"
        | "srand"
        | "time"
        | "clock"
        | "isalpha"
        | "isdigit"
        | "isalnum"
        | "isspace"
        | "isupper"
        | "islower"
        | "isprint"
        | "ispunct"
        | "isxdigit"
        | "iscntrl"
        | "toupper"
        | "tolower"
        | "sqrt"
        | "pow"
        | "fabs"
        | "floor"
        | "ceil"
        | "exp"
        | "log"
        | "sin"
        | "cos"
        | "tan"
        | "atan"
        | "atan2"
        | "fmod"
        | "getchar"
        | "getc"
        | "fgetc"
        | "feof"
        | "ferror"
        | "clearerr"
        | "ungetc"
        | "fseek"
        | "ftell"
        | "rewind"
        | "remove"
        | "rename"
        | "perror"
        | "sleep"
        | "usleep"
        | "close"
        | "read"
        | "write"
        | "open"
        | "closedir"
        | "rewinddir"
        | "dirfd"
        | "pthread_join"
        | "pthread_mutex_lock"
        | "pthread_mutex_unlock"
        | "pthread_mutex_init"
        | "pthread_mutex_destroy"
        | "setjmp"
        | "sigsetjmp"
        | "_setjmp"
        | "assert"
        | "system"
        | "getpid"
        | "fileno"
        | "setvbuf"
        | "setbuf"
        | "difftime"
        | "mktime"
        | "raise"
        | "kill"
        | "va_start"
        | "va_end"
        | "va_copy"
        | "__builtin_va_start"
        | "__builtin_va_end"
        | "__builtin_expect"
        | "wait"
        | "waitpid"
        | "fork"
        | "getopt"
        | "isblank"
        | "isgraph"
        | "isascii"
        | "toascii"
        | "acos"
        | "asin"
        | "cosh"
        | "sinh"
        | "tanh"
        | "exp2"
        | "expm1"
        | "frexp"
        | "ldexp"
        | "log10"
        | "log1p"
        | "log2"
        | "logb"
        | "modf"
        | "cbrt"
        | "hypot"
        | "round"
        | "trunc"
        | "rint"
        | "lround"
        | "lrint"
        | "nearbyint"
        | "remainder"
        | "copysign"
        | "nextafter"
        | "fmax"
        | "fmin"
        | "fdim"
        | "fma"
        | "scalbn"
        | "floorf"
        | "ceilf"
        | "fabsf"
        | "sqrtf"
        | "powf"
        | "fmodf"
        | "frexpf"
        | "ldexpf"
        | "floorl"
        | "fabsl"
        | "fmodl"
        | "powl"
        | "frexpl"
        | "ldexpl"
        | "sqrtl"
        | "imaxabs"
        | "imaxdiv"
        | "div"
        | "ldiv"
        | "lldiv"
        | "ffs"
        | "bcmp"
        | "random"
        | "srandom"
        | "setenv"
        | "unsetenv"
        | "mkstemp"
        | "malloc_usable_size"
        | "mblen"
        | "mbtowc"
        | "wctomb"
        | "mbstowcs"
        | "wcstombs"
        | "mbrtowc"
        | "wcrtomb"
        | "wcslen"
        | "wcscmp"
        | "strxfrm"
        | "strerror_r"
        | "stat"
        | "fstat"
        | "lstat"
        | "chmod"
        | "fchmod"
        | "mkdir"
        | "mkfifo"
        | "umask"
        | "utime"
        | "utimes"
        | "access"
        | "chdir"
        | "fchdir"
        | "chown"
        | "fchown"
        | "dup"
        | "dup2"
        | "execl"
        | "execlp"
        | "execv"
        | "execve"
        | "execvp"
        | "fpathconf"
        | "fsync"
        | "ftruncate"
        | "getegid"
        | "geteuid"
        | "getgid"
        | "getppid"
        | "getuid"
        | "gethostname"
        | "isatty"
        | "link"
        | "lseek"
        | "pipe"
        | "pread"
        | "pwrite"
        | "readlink"
        | "rmdir"
        | "setgid"
        | "setuid"
        | "symlink"
        | "sysconf"
        | "truncate"
        | "unlink"
        | "alarm"
        | "getpagesize"
        | "openat"
        | "creat"
        | "fcntl"
        | "dlclose"
        | "pclose"
        | "vfscanf"
        | "vscanf"
        | "vsscanf"
        | "dprintf"
        | "fgetpos"
        | "fsetpos"
        | "fseeko"
        | "ftello"
        | "flockfile"
        | "funlockfile"
        | "getc_unlocked"
        | "putc_unlocked"
        | "strftime"
        | "gettimeofday"
        | "clock_gettime"
        | "nanosleep"
        | "times"
        | "tzset"
        | "sigemptyset"
        | "sigfillset"
        | "sigaddset"
        | "sigdelset"
        | "sigprocmask"
        | "pthread_detach"
        | "pthread_self"
        | "pthread_equal"
        | "pthread_mutex_trylock"
        | "pthread_mutexattr_init"
        | "pthread_mutexattr_destroy"
        | "pthread_mutexattr_settype"
        | "pthread_cond_init"
        | "pthread_cond_destroy"
        | "pthread_cond_wait"
        | "pthread_cond_timedwait"
        | "pthread_cond_signal"
        | "pthread_cond_broadcast"
        | "pthread_attr_init"
        | "pthread_attr_destroy"
        | "pthread_key_delete" => Pure,
        _ => return None,
    })
}

/// Library objects a function returns on every call, never `NULL`
/// (`localeconv`'s).
pub fn never_null(object: &str) -> bool {
    object == "struct lconv"
}

/// What a pointer of the C library's data may point to: a library object
/// (a summary, named like the objects of [`Effect::Object`]) or `NULL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibTarget {
    Object(&'static str),
    Null,
}

/// The C library's globals (declared by its headers, defined by no unit of
/// the program): what their pointers hold when the program starts. `Some(&[])`
/// for a library global that holds no pointer (`errno`); `None` for a name
/// the library does not define (a global the program declares but nothing
/// defines holds an unknown value).
pub fn global_targets(name: &str) -> Option<&'static [LibTarget]> {
    use LibTarget::*;
    Some(match name {
        "stdin" | "stdout" | "stderr" => &[Object("FILE")],
        // Points into an argument string once getopt has run.
        "optarg" => &[Object("argv string"), Null],
        "environ" | "__environ" => &[Object("envp[]")],
        "program_invocation_name" | "program_invocation_short_name" => &[Object("argv string")],
        "tzname" => &[Object("library string")],
        "errno" | "optind" | "opterr" | "optopt" | "timezone" | "daylight" | "signgam" => &[],
        _ => return None,
    })
}

/// What the pointers inside a library object hold (an array of strings
/// holds strings and its terminating `NULL`; `argv`'s `NULL` is seen only
/// by a test, [`ends_in_null`]).
pub fn object_targets(object: &str) -> &'static [LibTarget] {
    use LibTarget::*;
    match object {
        "argv[]" => &[Object("argv string")],
        "envp[]" => &[Object("environment string"), Null],
        _ => &[],
    }
}

/// Whether a pointer to the library object may also be the `NULL` that
/// ends its array, though the array's model holds no `NULL`: `argv`'s
/// strings. `argv[0]` to `argv[argc - 1]` are strings and `argv[argc]` is
/// `NULL` (C11 5.1.2.2.1); programs index `argv` below `argc` and walk it
/// to the end by testing each element, so an element read is a string
/// (`strlen(argv[i])` is no NULL dereference) while its test for `NULL`
/// may be true (`transfer::refine`: `while (*p) p++;` ends).
pub fn ends_in_null(object: &str) -> bool {
    object == "argv string"
}

/// What an unwritten pointer inside a library object holds (`None`: the
/// object holds no pointer, or [`object_targets`] lists its pointers):
/// the pointer fields of `localeconv()`'s `struct lconv`, `gmtime()`'s
/// `tm_zone`, `getpwnam()`'s `pw_name`, `getgrnam()`'s `gr_mem`, a `FILE`'s
/// buffers point into memory the library owns, never written by the
/// program. One summary object, `library data`, stands for all of it, and
/// its own pointers point to it again, so that a chain of loads
/// (`gr_mem[0]`) never reads nothing. A program's store into such an
/// object is a weak update that keeps this value.
pub fn object_contents(object: &str) -> Option<&'static str> {
    match object {
        // Character arrays, and the arrays `object_targets` describes.
        "argv string" | "environment string" | "strerror string" | "library string"
        | "time string" | "argv[]" | "envp[]" | "errno" => None,
        _ => Some(LIBRARY_DATA),
    }
}

/// The object the pointers inside library objects point to
/// ([`object_contents`]).
pub const LIBRARY_DATA: &str = "library data";

/// The alias-check calls of pointer-analysis test suites: no-ops for the
/// analysis, evaluated by `check`.
pub fn is_alias_check(name: &str) -> bool {
    matches!(
        name,
        "MUSTALIAS"
            | "MAYALIAS"
            | "NOALIAS"
            | "PARTIALALIAS"
            | "EXPECTEDFAIL_MAYALIAS"
            | "EXPECTEDFAIL_NOALIAS"
    )
}

/// Whether an alias check holds given the analysis's verdict (the one rule,
/// `pointee_ir::Verdict::holds`).
pub fn check_holds(name: &str, verdict: crate::Alias) -> bool {
    verdict.holds(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Functions of pointee's C library headers left to the unknown-call
    /// rule on purpose, and why.
    const UNKNOWN_ON_PURPOSE: &[(&str, &str)] = &[
        (
            "sigaction",
            "the handler sits in a struct: unknown code calls every function it reaches",
        ),
        (
            "pthread_key_create",
            "the destructor is called later with what `pthread_setspecific` stored",
        ),
        (
            "pthread_setspecific",
            "the value is kept by the library: it escapes to unknown code",
        ),
        (
            "pthread_getspecific",
            "returns what `pthread_setspecific` stored: `unknown` covers it",
        ),
        (
            "putenv",
            "the string becomes part of the environment (FIXME: `getenv`'s result does not include it)",
        ),
        (
            "memccpy",
            "copies and returns a pointer past the copy: not worth an effect of its own",
        ),
    ];

    /// The names of the functions `header` declares (one declaration per
    /// `;`, struct bodies, comments and preprocessor lines left out).
    fn declared_functions(header: &str) -> Vec<String> {
        let mut text = String::new();
        let mut depth = 0;
        let mut rest = header;
        while let Some(i) = rest.find("/*") {
            text.push_str(&rest[..i]);
            rest = rest[i..].split_once("*/").map_or("", |(_, r)| r);
        }
        text.push_str(rest);
        let mut code = String::new();
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            for c in line.split("//").next().unwrap_or("").chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => code.push(c),
                    _ => {}
                }
            }
            code.push('\n');
        }
        let mut out = Vec::new();
        for decl in code.split(';').map(str::trim) {
            if decl.starts_with("typedef") {
                continue;
            }
            // The declared name is the identifier right before the first
            // `(` that follows one (`void (*signal(int, ...))(int)`).
            let mut ident = String::new();
            for c in decl.chars() {
                if c.is_ascii_alphanumeric() || c == '_' {
                    ident.push(c);
                    continue;
                }
                if c == '(' && !ident.is_empty() && !ident.starts_with("__attribute") {
                    out.push(ident);
                    break;
                }
                ident.clear();
            }
        }
        out
    }

    fn headers(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                headers(&p, out);
            } else if p.extension().is_some_and(|x| x == "h") {
                out.push(p);
            }
        }
    }

    /// Every function pointee's C library headers declare has an effect in
    /// the table (or is listed above): an unmodelled one is an unknown call,
    /// which makes every global and everything the arguments reach possibly
    /// `unknown` and escaped, in a closed program with a `main` too (bzip2's
    /// `stat` and `isatty` did, and most of its time went to stores through
    /// `unknown` afterwards).
    #[test]
    fn every_function_of_the_library_headers_has_an_effect() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pointee-c/libc");
        let mut files = Vec::new();
        headers(&dir, &mut files);
        files.sort();
        let mut missing = Vec::new();
        let mut seen = 0;
        for f in files {
            for name in declared_functions(&std::fs::read_to_string(&f).unwrap()) {
                seen += 1;
                let on_purpose = UNKNOWN_ON_PURPOSE.iter().any(|(n, _)| *n == name);
                if effect(&name).is_none() && !is_alias_check(&name) && !on_purpose {
                    missing.push(format!(
                        "{}: {name}",
                        f.file_name().unwrap().to_string_lossy()
                    ));
                }
                assert!(
                    !(on_purpose && effect(&name).is_some()),
                    "{name} has an effect and is listed as unknown on purpose"
                );
            }
        }
        assert!(
            seen > 300,
            "only {seen} declarations found: the header reader broke"
        );
        assert!(missing.is_empty(), "no effect for: {missing:#?}");
    }

    #[test]
    fn the_header_reader_finds_declared_names() {
        let h = "#define X(a) a\n/* f(x) */ struct s { int (*cb)(int); };\n\
                 typedef void (*handler)(int);\nint open(const char *p, int f, ...);\n\
                 void (*signal(int sig, void (*func)(int)))(int);\nextern char *optarg;\n\
                 _Noreturn void exit(int) __attribute__((noreturn));\n";
        assert_eq!(declared_functions(h), ["open", "signal", "exit"]);
    }
}
