package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void findsMetricNamesButNotFunctionsLabelsOrKeywords() {
        String expr = "topk by (job, instance) (1, instance_site:blockscope_copy_site_bytes:rate1m)"
                + " or on (job, instance) label_replace(instance:blockscope_copy_to_heap_bytes:rate1m, \"site\", \"unknown\", \"\", \"\")"
                + " and on (job, instance) (blockscope_read_path_mode{mode=\"zero-copy\"} == bool 1)";
        assertEquals(
                List.of(
                        "instance_site:blockscope_copy_site_bytes:rate1m",
                        "instance:blockscope_copy_to_heap_bytes:rate1m",
                        "blockscope_read_path_mode"),
                List.copyOf(PromQl.metricNames(expr)));
    }

    @Test
    void ignoresNamesInsideStringsDurationsAndGroupings() {
        String expr =
                "sum without (gc, cause) (rate(blockscope_gc_pause_seconds{gc=~\"up|down\", cause!=\"some_metric_total\"}[5m] offset 1h))"
                        + " / ignoring (le) group_left (tier) blockscope_block_refs_outstanding * 1e3";
        assertEquals(
                Set.of("blockscope_gc_pause_seconds", "blockscope_block_refs_outstanding"), PromQl.metricNames(expr));
    }

    @Test
    void ignoresGrafanaVariablesOutsideStrings() {
        assertEquals(
                Set.of("blockscope_block_leaks_total"),
                PromQl.metricNames(
                        "increase(blockscope_block_leaks_total[$__range]) and blockscope_block_leaks_total offset $__range"));
    }

    @Test
    void readsMatchersOfEachSelector() {
        List<PromQl.Selector> selectors =
                PromQl.selectors("up{job=\"$job\", instance=\"$instance\"} == 0 unless on (job) bare_metric");
        assertEquals(new PromQl.Selector("up", "job=\"$job\", instance=\"$instance\""), selectors.get(0));
        assertEquals(new PromQl.Selector("bare_metric", ""), selectors.get(1));
    }

    @Test
    void listsRangeWindows() {
        assertEquals(
                List.of("$__rate_interval", "5m"),
                PromQl.rangeWindows("rate(a_total{x=\"[not a window]\"}[$__rate_interval]) + increase(b_total[5m])"));
    }

    @Test
    void resolvesEveryGrafanaVariableForm() {
        Map<String, String> values =
                Map.of("job", "blockscope", "instance", "127.0.0.1:9404", "__rate_interval", "10s");
        assertEquals(
                "rate(x{job=\"blockscope\", instance=\"127.0.0.1:9404\"}[10s]) + y{i=\"127.0.0.1:9404\", j=\"blockscope\"}",
                PromQl.resolveGrafanaVariables(
                        "rate(x{job=\"$job\", instance=\"${instance}\"}[$__rate_interval]) + y{i=\"${instance:regex}\", j=\"[[job]]\"}",
                        values));
        assertEquals(
                Set.of("job", "instance", "__rate_interval"),
                PromQl.grafanaVariables("x{job=\"$job\", instance=\"${instance}\"}[$__rate_interval]"));
    }

    @Test
    void refusesToResolveAnUnknownVariable() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> PromQl.resolveGrafanaVariables("x[$__range]", Map.of()));
        assertEquals("no value for Grafana variable $__range in: x[$__range]", e.getMessage());
    }

    @Test
    void readsLabelValuesQueries() {
        assertEquals(
                "blockscope_exporter_build_info{job=\"$job\"}",
                GrafanaDashboard.labelValuesSelector(
                        "label_values(blockscope_exporter_build_info{job=\"$job\"}, instance)"));
        assertEquals(
                "instance",
                GrafanaDashboard.labelValuesLabel(
                        "label_values(blockscope_exporter_build_info{job=\"$job\"}, instance)"));
        assertThrows(IllegalArgumentException.class, () -> GrafanaDashboard.labelValuesSelector("query_result(up)"));
    }
}
