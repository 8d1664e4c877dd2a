//! The predefined macros: those of gcc 12 for C on x86-64 Linux (the ones
//! programs and headers test; `gcc -dM -E - </dev/null` lists them all), and
//! `__POINTEE__`, which says that pointee, not a compiler, is reading.
//! `-std=` sets `__STDC_VERSION__` and `__STRICT_ANSI__`; `-D` and `-U`
//! (applied after these) change any of them.

use crate::Config;

/// Defined whatever the standard.
const COMMON: &str = "\
#define __POINTEE__ 1
#define __STDC__ 1
#define __STDC_HOSTED__ 1
#define __STDC_UTF_16__ 1
#define __STDC_UTF_32__ 1
#define __STDC_IEC_559__ 1
#define __STDC_IEC_559_COMPLEX__ 1
#define __STDC_ISO_10646__ 201706L
#define __GNUC__ 12
#define __GNUC_MINOR__ 2
#define __GNUC_PATCHLEVEL__ 0
#define __VERSION__ \"12.2.0\"
#define __GNUC_STDC_INLINE__ 1
#define __x86_64__ 1
#define __x86_64 1
#define __amd64__ 1
#define __amd64 1
#define __linux__ 1
#define __linux 1
#define __gnu_linux__ 1
#define __unix__ 1
#define __unix 1
#define __ELF__ 1
#define __LP64__ 1
#define _LP64 1
#define __CHAR_BIT__ 8
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_INT__ 4
#define __SIZEOF_LONG__ 8
#define __SIZEOF_LONG_LONG__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_FLOAT__ 4
#define __SIZEOF_DOUBLE__ 8
#define __SIZEOF_LONG_DOUBLE__ 16
#define __SIZEOF_SIZE_T__ 8
#define __SIZEOF_WCHAR_T__ 4
#define __SIZEOF_WINT_T__ 4
#define __SIZEOF_PTRDIFF_T__ 8
#define __SIZEOF_INT128__ 16
#define __BIGGEST_ALIGNMENT__ 16
#define __SCHAR_MAX__ 0x7f
#define __SHRT_MAX__ 0x7fff
#define __INT_MAX__ 0x7fffffff
#define __LONG_MAX__ 0x7fffffffffffffffL
#define __LONG_LONG_MAX__ 0x7fffffffffffffffLL
#define __WCHAR_MAX__ 0x7fffffff
#define __WCHAR_MIN__ (-__WCHAR_MAX__ - 1)
#define __SIZE_MAX__ 0xffffffffffffffffUL
#define __PTRDIFF_MAX__ 0x7fffffffffffffffL
#define __INTMAX_MAX__ 0x7fffffffffffffffL
#define __UINTMAX_MAX__ 0xffffffffffffffffUL
#define __INTPTR_MAX__ 0x7fffffffffffffffL
#define __UINTPTR_MAX__ 0xffffffffffffffffUL
#define __SIZE_TYPE__ long unsigned int
#define __PTRDIFF_TYPE__ long int
#define __WCHAR_TYPE__ int
#define __WINT_TYPE__ unsigned int
#define __INTMAX_TYPE__ long int
#define __UINTMAX_TYPE__ long unsigned int
#define __INTPTR_TYPE__ long int
#define __UINTPTR_TYPE__ long unsigned int
#define __INT8_TYPE__ signed char
#define __INT16_TYPE__ short int
#define __INT32_TYPE__ int
#define __INT64_TYPE__ long int
#define __UINT8_TYPE__ unsigned char
#define __UINT16_TYPE__ short unsigned int
#define __UINT32_TYPE__ unsigned int
#define __UINT64_TYPE__ long unsigned int
#define __CHAR16_TYPE__ short unsigned int
#define __CHAR32_TYPE__ unsigned int
#define __ORDER_LITTLE_ENDIAN__ 1234
#define __ORDER_BIG_ENDIAN__ 4321
#define __ORDER_PDP_ENDIAN__ 3412
#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
#define __FLOAT_WORD_ORDER__ __ORDER_LITTLE_ENDIAN__
#define __FLT_MANT_DIG__ 24
#define __DBL_MANT_DIG__ 53
#define __LDBL_MANT_DIG__ 64
#define __FLT_MAX__ 3.40282346638528859811704183484516925e+38F
#define __DBL_MAX__ ((double)1.79769313486231570814527423731704357e+308L)
#define __FLT_MIN__ 1.17549435082228750796873653722224568e-38F
#define __DBL_MIN__ ((double)2.22507385850720138309023271733240406e-308L)
#define __FLT_EPSILON__ 1.19209289550781250000000000000000000e-7F
#define __DBL_EPSILON__ ((double)2.22044604925031308084726333618164062e-16L)
#define __FLT_DIG__ 6
#define __DBL_DIG__ 15
#define __FLT_RADIX__ 2
#define __ATOMIC_RELAXED 0
#define __ATOMIC_SEQ_CST 5
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_CONSUME 1
#define __NO_INLINE__ 1
#define __USER_LABEL_PREFIX__
#define __REGISTER_PREFIX__
#define __DATE__ \"Jan  1 1970\"
#define __TIME__ \"00:00:00\"
";

/// The predefined macros for `config`'s standard, as `#define` lines.
pub fn predefined(config: &Config) -> String {
    let std = config.std.unwrap_or(crate::Standard::Gnu17);
    let mut s = String::from(COMMON);
    if let Some(v) = std.version() {
        s.push_str(&format!("#define __STDC_VERSION__ {v}L\n"));
    }
    if std.strict() {
        s.push_str("#define __STRICT_ANSI__ 1\n");
    } else {
        s.push_str("#define linux 1\n#define unix 1\n");
    }
    s
}
