//! Names the C library's headers would declare. Without a preprocessor the
//! headers are not read, so a library function used as a value (`atexit(free)`)
//! or a library global (`stdin`) is recognised here by name. What the
//! functions do is the analysis's business, not this table's.

use pointee_ir::{Name, Type};

const FUNCTIONS: &[&str] = &[
    "abort",
    "abs",
    "atexit",
    "atof",
    "atoi",
    "atol",
    "bsearch",
    "calloc",
    "close",
    "exit",
    "fclose",
    "fflush",
    "fgetc",
    "fgets",
    "fopen",
    "fprintf",
    "fputc",
    "fputs",
    "fread",
    "free",
    "fscanf",
    "fseek",
    "ftell",
    "fwrite",
    "getc",
    "getchar",
    "getenv",
    "isalnum",
    "isalpha",
    "isdigit",
    "isspace",
    "malloc",
    "memchr",
    "memcmp",
    "memcpy",
    "memmove",
    "memset",
    "open",
    "perror",
    "printf",
    "putc",
    "putchar",
    "puts",
    "qsort",
    "raise",
    "read",
    "realloc",
    "remove",
    "rename",
    "scanf",
    "signal",
    "snprintf",
    "sprintf",
    "sscanf",
    "strcasecmp",
    "strcat",
    "strchr",
    "strcmp",
    "strcpy",
    "strcspn",
    "strdup",
    "strerror",
    "strlen",
    "strncasecmp",
    "strncat",
    "strncmp",
    "strncpy",
    "strndup",
    "strpbrk",
    "strrchr",
    "strspn",
    "strstr",
    "strtod",
    "strtok",
    "strtol",
    "strtoul",
    "system",
    "time",
    "tolower",
    "toupper",
    "ungetc",
    "vfprintf",
    "vprintf",
    "vsnprintf",
    "write",
];

/// A C library function's name.
pub(crate) fn is_function(name: &str) -> bool {
    FUNCTIONS.binary_search(&name).is_ok()
}

/// The type of a C library global, by name.
pub(crate) fn global_type(name: &str) -> Option<Type> {
    let file_ptr = || Type::pointer_to(Type::Record(Name::from("FILE")));
    match name {
        "stdin" | "stdout" | "stderr" => Some(file_ptr()),
        "errno" | "optind" | "opterr" | "optopt" => Some(Type::Scalar),
        "optarg" => Some(Type::pointer_to(Type::Scalar)),
        "environ" => Some(Type::pointer_to(Type::pointer_to(Type::Scalar))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_function_table_is_sorted_for_binary_search() {
        let mut sorted = super::FUNCTIONS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, super::FUNCTIONS);
    }
}
