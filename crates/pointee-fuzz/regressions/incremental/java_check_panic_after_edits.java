public class ArrayInitializers {
        {
    static void MUSTALIAS(Object a, Object b) { if (a != b) throw new nested("MUSTALIAS"); }
class B {}
class B {}
