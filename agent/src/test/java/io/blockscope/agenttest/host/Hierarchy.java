package io.blockscope.agenttest.host;

import java.util.AbstractList;

/** Class hierarchies for the agent's target filter tests (outside the agent's own packages, which it ignores). */
public final class Hierarchy {

    private Hierarchy() {}

    public static class Root {}

    public static class Child extends Root {}

    public static class GrandChild extends Child {}

    public static class Cousin extends Child {}

    public static final class FinalChild extends Child {}

    public static class Other {}

    public static class OtherList extends AbstractList<Object> {
        @Override
        public Object get(int index) {
            return null;
        }

        @Override
        public int size() {
            return 0;
        }
    }

    public interface Marker {}

    public static class Impl implements Marker {}

    public static class SubImpl extends Impl {}
}
