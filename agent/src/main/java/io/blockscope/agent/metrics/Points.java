package io.blockscope.agent.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

/** One data point from a value and its label name/value pairs, for every family of this package. */
final class Points {

    private Points() {}

    static CounterDataPointSnapshot counter(double value, String... labels) {
        return counter(value, null, labels);
    }

    /** A counter point with an exemplar (null: none): its last observation's context, in no series label. */
    static CounterDataPointSnapshot counter(double value, Exemplar exemplar, String... labels) {
        CounterDataPointSnapshot.Builder point =
                CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels));
        if (exemplar != null) {
            point.exemplar(exemplar);
        }
        return point.build();
    }

    static GaugeDataPointSnapshot gauge(double value, String... labels) {
        return GaugeDataPointSnapshot.builder()
                .value(value)
                .labels(Labels.of(labels))
                .build();
    }
}
