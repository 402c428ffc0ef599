package io.blockscope.hbasers;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.ServiceException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.protobuf.ProtobufUtil;

/**
 * Calls HBase's {@code AggregateImplementation} (hbase-endpoint) on one region as {@code
 * AggregationClient} does, without hbase-endpoint on the client's class path (2.6.4's is not served
 * to this build): its service, {@code hbase.pb.AggregateService} of HBase's Aggregate.proto, is
 * declared here at run time. The request's {@code scan} field is a Client.proto {@code Scan}, sent
 * as its encoded bytes (the same wire format); the interpreter is named by class, with no
 * interpreter-specific bytes (the stock interpreters need none).
 */
final class AggregateEndpoint {

    static final String IMPLEMENTATION = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation";

    /** The service's methods, as AggregationClient's max, min, sum, avg, std, median and rowCount call them. */
    static final List<String> METHODS =
            List.of("GetMax", "GetMin", "GetSum", "GetAvg", "GetStd", "GetMedian", "GetRowNum");

    private static final Descriptors.FileDescriptor PROTOCOL = protocol();
    private static final Descriptors.ServiceDescriptor SERVICE = PROTOCOL.findServiceByName("AggregateService");
    private static final Descriptors.Descriptor REQUEST = PROTOCOL.findMessageTypeByName("AggregateRequest");
    private static final Descriptors.Descriptor RESPONSE = PROTOCOL.findMessageTypeByName("AggregateResponse");

    private AggregateEndpoint() {}

    /**
     * The answer of {@code method} for the region of {@code table} holding {@code row}: the
     * response's {@code first_part} (empty when the region had no value to give).
     */
    static List<ByteString> call(Table table, byte[] row, String method, String interpreter, Scan scan)
            throws IOException {
        DynamicMessage request = DynamicMessage.newBuilder(REQUEST)
                .setField(REQUEST.findFieldByName("interpreter_class_name"), interpreter)
                .setField(
                        REQUEST.findFieldByName("scan"),
                        ProtobufUtil.toScan(scan).toByteString())
                .build();
        try {
            Message response = table.coprocessorService(row)
                    .callBlockingMethod(
                            SERVICE.findMethodByName(method),
                            null,
                            request,
                            DynamicMessage.getDefaultInstance(RESPONSE));
            @SuppressWarnings("unchecked")
            List<ByteString> first = (List<ByteString>) response.getField(RESPONSE.findFieldByName("first_part"));
            return first;
        } catch (ServiceException e) {
            throw new IOException(method + " with " + interpreter + " failed", e);
        }
    }

    private static Descriptors.FileDescriptor protocol() {
        ServiceDescriptorProto.Builder service =
                ServiceDescriptorProto.newBuilder().setName("AggregateService");
        for (String method : METHODS) {
            service.addMethod(MethodDescriptorProto.newBuilder()
                    .setName(method)
                    .setInputType(".hbase.pb.AggregateRequest")
                    .setOutputType(".hbase.pb.AggregateResponse"));
        }
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("blockscope/Aggregate.proto")
                .setPackage("hbase.pb")
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("AggregateRequest")
                        .addField(field("interpreter_class_name", 1, FieldDescriptorProto.Type.TYPE_STRING, true))
                        .addField(field("scan", 2, FieldDescriptorProto.Type.TYPE_BYTES, true))
                        .addField(field("interpreter_specific_bytes", 3, FieldDescriptorProto.Type.TYPE_BYTES, false)))
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("AggregateResponse")
                        .addField(FieldDescriptorProto.newBuilder()
                                .setName("first_part")
                                .setNumber(1)
                                .setType(FieldDescriptorProto.Type.TYPE_BYTES)
                                .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                        .addField(field("second_part", 2, FieldDescriptorProto.Type.TYPE_BYTES, false)))
                .addService(service)
                .build();
        try {
            return Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[0]);
        } catch (Descriptors.DescriptorValidationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static FieldDescriptorProto.Builder field(
            String name, int number, FieldDescriptorProto.Type type, boolean required) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(
                        required
                                ? FieldDescriptorProto.Label.LABEL_REQUIRED
                                : FieldDescriptorProto.Label.LABEL_OPTIONAL);
    }
}
