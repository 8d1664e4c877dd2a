/* pointee's C library model: <math.h>. */
#ifndef _MATH_H
#define _MATH_H
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VALL (__builtin_huge_vall())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define M_E 2.7182818284590452354
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_LN2 0.69314718055994530942
#define M_SQRT2 1.41421356237309504880
typedef float float_t;
typedef double double_t;
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)
#define fpclassify(x) __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
double acos(double x);
double asin(double x);
double atan(double x);
double atan2(double y, double x);
double cos(double x);
double sin(double x);
double tan(double x);
double cosh(double x);
double sinh(double x);
double tanh(double x);
double exp(double x);
double exp2(double x);
double expm1(double x);
double frexp(double value, int *exp);
double ldexp(double x, int exp);
double log(double x);
double log10(double x);
double log1p(double x);
double log2(double x);
double logb(double x);
double modf(double value, double *iptr);
double pow(double x, double y);
double sqrt(double x);
double cbrt(double x);
double hypot(double x, double y);
double ceil(double x);
double fabs(double x);
double floor(double x);
double fmod(double x, double y);
double round(double x);
double trunc(double x);
double rint(double x);
long lround(double x);
long lrint(double x);
double nearbyint(double x);
double remainder(double x, double y);
double copysign(double x, double y);
double nextafter(double x, double y);
double fmax(double x, double y);
double fmin(double x, double y);
double fdim(double x, double y);
double fma(double x, double y, double z);
double scalbn(double x, int n);
float floorf(float x);
float ceilf(float x);
float fabsf(float x);
float sqrtf(float x);
float powf(float x, float y);
float fmodf(float x, float y);
float frexpf(float value, int *exp);
float ldexpf(float x, int exp);
long double floorl(long double x);
long double fabsl(long double x);
long double fmodl(long double x, long double y);
long double powl(long double x, long double y);
long double frexpl(long double value, int *exp);
long double ldexpl(long double x, int exp);
long double sqrtl(long double x);
#endif
