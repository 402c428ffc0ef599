package io.blockscope.server.cli;

import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.pe.Workload;
import io.blockscope.units.Units;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters that turn the project's own parse errors into picocli's usage errors. */
final class Converters {

    private Converters() {}

    private interface Parser<T> {
        T parse(String text);
    }

    private static <T> T convert(Parser<T> parser, String text) {
        try {
            return parser.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** {@code 65536}, {@code 64k}, {@code 1g}. */
    static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            return Converters.convert(Units::bytes, text);
        }
    }

    /** A size, or {@code auto} (-1): sized from the data. */
    static final class SizeOrAuto implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            return text.equals("auto") ? -1L : Converters.convert(Units::bytes, text);
        }
    }

    /** {@code 500ms}, {@code 20s}, {@code 2m}. */
    static final class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            return Converters.convert(Units::duration, text);
        }
    }

    static final class Deploy implements ITypeConverter<CacheDeploy> {
        @Override
        public CacheDeploy convert(String text) {
            return Converters.convert(CacheDeploy::fromLabel, text);
        }
    }

    static final class ReadPath implements ITypeConverter<ReadPathMode> {
        @Override
        public ReadPathMode convert(String text) {
            return Converters.convert(ReadPathMode::fromLabel, text);
        }
    }

    static final class ValueDist implements ITypeConverter<ValueDistribution> {
        @Override
        public ValueDistribution convert(String text) {
            return Converters.convert(ValueDistribution::parse, text);
        }
    }

    static final class WorkloadName implements ITypeConverter<Workload> {
        @Override
        public Workload convert(String text) {
            return Converters.convert(Workload::parse, text);
        }
    }
}
