package io.blockscope.exporter.page;

import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts: no script, no library, nothing fetched. Inputs are numbers only; the one text
 * they carry (the accessible title) is escaped.
 */
final class Charts {

    static final int WIDTH = 360;
    static final int HEIGHT = 60;

    private Charts() {}

    /** A line over time, scaled to its own maximum (at least {@code floor}). */
    static String line(String title, List<ReadPathView.Point> points, double floor) {
        StringBuilder svg = open(title);
        if (points.size() >= 2) {
            long t0 = points.get(0).timeMillis;
            long span = Math.max(1, points.get(points.size() - 1).timeMillis - t0);
            double max = Math.max(Math.max(floor, max(points)), 1e-12);
            StringBuilder path = new StringBuilder();
            for (ReadPathView.Point p : points) {
                path.append(path.length() == 0 ? "M" : " L")
                        .append(fmt(x(p.timeMillis - t0, span)))
                        .append(',')
                        .append(fmt(y(p.value, max)));
            }
            svg.append("<path class=\"line\" d=\"").append(path).append("\"/>");
        }
        return svg.append("</svg>").toString();
    }

    /** Bars over time (one per point), scaled to the largest (at least {@code floor}). */
    static String bars(String title, List<ReadPathView.Point> points, double floor) {
        StringBuilder svg = open(title);
        if (!points.isEmpty()) {
            double max = Math.max(Math.max(floor, max(points)), 1e-12);
            double width = (double) WIDTH / points.size();
            for (int i = 0; i < points.size(); i++) {
                if (!(points.get(i).value > 0)) {
                    continue; // no bar for nothing (or NaN)
                }
                double top = y(points.get(i).value, max);
                svg.append("<rect class=\"bar\" x=\"")
                        .append(fmt(i * width))
                        .append("\" y=\"")
                        .append(fmt(top))
                        .append("\" width=\"")
                        .append(fmt(Math.max(1, width - 1)))
                        .append("\" height=\"")
                        .append(fmt(HEIGHT - top))
                        .append("\"/>");
            }
        }
        return svg.append("</svg>").toString();
    }

    /** A horizontal fill bar for a share 0..1. */
    static String share(String title, double fraction) {
        double f = Double.isNaN(fraction) ? 0 : Math.max(0, Math.min(1, fraction));
        return "<svg class=\"share\" viewBox=\"0 0 100 8\" width=\"100\" height=\"8\" role=\"img\"><title>"
                + Html.escape(title) + "</title><rect class=\"track\" width=\"100\" height=\"8\"/>"
                + "<rect class=\"fill\" width=\"" + fmt(100 * f) + "\" height=\"8\"/></svg>";
    }

    private static StringBuilder open(String title) {
        return new StringBuilder(512)
                .append("<svg class=\"chart\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(HEIGHT)
                .append("\" preserveAspectRatio=\"none\" role=\"img\"><title>")
                .append(Html.escape(title))
                .append("</title><line class=\"axis\" x1=\"0\" y1=\"")
                .append(HEIGHT - 0.5)
                .append("\" x2=\"")
                .append(WIDTH)
                .append("\" y2=\"")
                .append(HEIGHT - 0.5)
                .append("\"/>");
    }

    private static double max(List<ReadPathView.Point> points) {
        double max = 0;
        for (ReadPathView.Point p : points) {
            if (p.value > max && !Double.isInfinite(p.value)) {
                max = p.value;
            }
        }
        return max;
    }

    private static double x(long offset, long span) {
        return (double) WIDTH * offset / span;
    }

    private static double y(double value, double max) {
        double v = Double.isNaN(value) ? 0 : Math.max(0, Math.min(value, max));
        return HEIGHT - 2 - (HEIGHT - 4) * v / max;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
