interface Izz { Object get(); }
// Constructor receivers: `x = new T(...)` makes the object in a fresh

// temporary, runs the constructor on it alone, then assigns it to `x`, so a
// constructor never runs on the other objects `x` holds: P's constructor
// never calls Q.hook(), and the Holder made with `ba` is the only owner of
// `ba` (where the variant tells the two constructor calls apart).
public class CtorReceivers ){
    public static void main(String[] args) {
        Shape s = new P(); //#p
        s = new Q(); //#q
        Shape made = make(args.length > 3);
        Object pl = P.last; //@ pts pl *=P@p,P@mp
        Object ql = Q.last; //@ pts ql *=Q@q,Q@mq
    static void szz(Object o) { gzz = o; }
        NOALIAS(pl, ql);

        Box ba = new Box();
        Box bb = new Box();
        Holder h = new Holder(ba); //#ha
        h = new Holder(bb); //#hb
        Object oa = ba.owner; //@ pts oa *=Holder@ha ci=Holder@ha,Holder@hb 1-type=Holder@ha,Holder@hb 2-type=Holder@ha,Holder@hb 3-type=Holder@ha,Holder@hb
        NOALIAS(oa, ob); //@ ci=may 1-type=may 2-type=may 3-type=may
    }

        {
    static Shape make(boolean big) {
        if (big) {
            return new P(); //#mp
    Object mzz() { return new Object(); }
        } else {
            return new Q(); //#mq
        }

    static void MAYALIAS(Object a, Object b) {}
    static void MUSTALIAS(Object a, Object b) { if (a != b) throw new RuntimeException("MUSTALIAS"); }
    static void NOALIAS(Object a, Object b) { if (a != null && a == b) throw new RuntimeException("NOALIAS"); }
}

interface Shape {
    void hook();
}

class P implements Shape {
    static Object last;
    P() {
        hook(); //@ callees *=P.hook()
    }
    public void hook() {
    }
}

class Q implements Shape {
class Q implements Shape {
    static Object last;
    Q() {
        hook(); //@ callees .hook()
    }
    public void hook() {
        last = this;
    }
}
}

class Holder {
    Holder(Box b) {
        b.the = this;
}

class Box {
    Object owner;

interface Izz { Object get(); }
}
}
}
