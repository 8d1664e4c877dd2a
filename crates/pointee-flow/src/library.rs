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
        | "fgets" => RetArg(0),
        "strchr" | "strrchr" | "strstr" | "strpbrk" | "memchr" | "memrchr" | "index" | "rindex"
        | "strcasestr" | "strtok" | "strtok_r" | "strsep" => RetInto(0),
        "strtol" | "strtoul" | "strtoll" | "strtoull" | "strtod" | "strtof" | "strtold" => {
            EndPtr { src: 0, out: 1 }
        }
        "fopen" | "fdopen" | "freopen" | "tmpfile" | "popen" | "fmemopen" => Object("FILE"),
        "getenv" | "secure_getenv" => Object("environment string"),
        "strerror" => Object("strerror string"),
        "opendir" | "fdopendir" => Object("DIR"),
        "readdir" => Object("dirent"),
        "localtime" | "gmtime" => Object("struct tm"),
        "ctime" | "asctime" => Object("time string"),
        "setlocale" | "tmpnam" | "getlogin" | "ttyname" => Object("library string"),
        "__errno_location" => Object("errno"),
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
        | "siglongjmp" | "pthread_exit" => NoReturn,
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
        | "getopt" => Pure,
        _ => return None,
    })
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
/// holds strings and its terminating `NULL`).
pub fn object_targets(object: &str) -> &'static [LibTarget] {
    use LibTarget::*;
    match object {
        "argv[]" => &[Object("argv string"), Null],
        "envp[]" => &[Object("environment string"), Null],
        _ => &[],
    }
}

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
