struct S { struct S; int x; };
int f(struct S *s) { return s->y; }
