public class CtorReceivers ){
    public static void main(String[] args) {
        h = new Holder(bb); //#hb
    }
    static Shape make(boolean big) {
class Q implements Shape {
class Q implements Shape {
class Holder {
    Holder(Box b) {
}
