package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.blockscope.testsupport.Closer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.protobuf.generated.VisibilityLabelsProtos.VisibilityLabelsResponse;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.AccessControlConstants;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.visibility.Authorizations;
import org.apache.hadoop.hbase.security.visibility.CellVisibility;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Cell ACLs and visibility labels on a real RegionServer with an offheap BucketCache and the agent
 * ({@code copy.sample=1}): authorization on with simple authentication, the AccessController and the
 * VisibilityController loaded as HBase's reference guide loads them (the AccessController first),
 * HFile v3 (the default) keeping tags. The superuser (the user running the server and this test)
 * writes a table whose every cell grants READ to "alice" by a cell ACL and a table whose every cell
 * carries the visibility expression "secret", flushes both and caches their blocks; then users the
 * server knows only by name (simple authentication trusts it) read them. Each read's copies, from
 * HBase's source, are asserted as {@link RegionServerFeaturesTest} asserts its features, and the run
 * writes its own table in docs/hbase.md.
 *
 * <p>{@code hbase.security.access.early_out=false}: with the default (true) a user without a table or
 * family grant is refused before any cell ACL is read (AccessController.internalPreRead), so cell
 * ACLs only grant reads with it off.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerSecurityFeaturesTest {

    static final int ROWS = 2000;
    static final String LABEL = "secret";
    private static final String SECURITY = "org.apache.hadoop.hbase.security.";
    private static final String ACCESS = SECURITY + "access.";
    private static final String VISIBILITY = SECURITY + "visibility.";
    private static final String LABEL_FILTER = VISIBILITY + "VisibilityLabelFilter.filterCell:";
    private static final int FAMILY_BYTES = Workload.FAMILY.length;
    private static final int QUALIFIER_BYTES = Workload.QUALIFIER.length;

    private RegionServerProcess server;
    private Connection superuser;
    private Connection alice;
    private Connection bob;
    private FeatureTable acl;
    private FeatureTable labels;
    private FeatureTable aclByAlice;
    private FeatureTable aclByBob;
    private FeatureTable labelsByAlice;
    /** The ACL tag's value: the UsersAndPermissions HBase serializes from Put#setACL, as it stores it. */
    private int aclTagBytes;

    private final List<FeatureReport.Row> measured = new ArrayList<>();

    @BeforeAll
    void start() throws Throwable {
        String access = ACCESS + "AccessController";
        String visibility = VISIBILITY + "VisibilityController";
        server = RegionServerProcess.builder()
                .agent("copy.sample=1,copy.jfr=false,sites=100")
                .site("hbase.security.authorization", "true")
                .site("hbase.coprocessor.master.classes", access + "," + visibility)
                .site("hbase.coprocessor.region.classes", access + "," + visibility)
                .site("hbase.coprocessor.regionserver.classes", access)
                .site("hbase.security.access.early_out", "false")
                .start();
        superuser = ConnectionFactory.createConnection(server.clientConfiguration());
        awaitSystemTables();
        untilDone("adding the label", () -> VisibilityClient.addLabels(superuser, new String[] {LABEL}));
        // refused until the label has reached the RegionServer's labels cache, which cells need too
        untilDone("giving alice the label", () -> VisibilityClient.setAuths(superuser, new String[] {LABEL}, "alice"));

        acl = FeatureTable.create(
                superuser,
                "secure_acl",
                ROWS,
                1,
                Workload::value,
                f -> f,
                t -> t,
                RegionServerSecurityFeaturesTest::grantAlice);
        labels = FeatureTable.create(
                superuser,
                "secure_labels",
                ROWS,
                1,
                Workload::value,
                f -> f,
                t -> t,
                p -> p.setCellVisibility(new CellVisibility(LABEL)));
        aclTagBytes = grantAlice(new Put(Workload.row(0))).getAttribute(AccessControlConstants.OP_ATTRIBUTE_ACL).length;
        AccessControlClient.grant(superuser, labels.table.getName(), "alice", null, null, Permission.Action.READ);
        AccessControlClient.grant(superuser, acl.table.getName(), "bob", null, null, Permission.Action.READ);

        alice = connectionAs("alice");
        bob = connectionAs("bob");
        aclByAlice = acl.readBy(alice);
        aclByBob = acl.readBy(bob);
        labelsByAlice = labels.readBy(alice);
        // Grants reach the RegionServer's AuthManager through ZooKeeper: until then bob's and alice's
        // reads of a table they may read in full return only what cell ACLs grant them (nothing).
        awaitAllRows(aclByBob, new Scan());
        awaitAllRows(labelsByAlice, new Scan().setAuthorizations(new Authorizations(LABEL)));
    }

    @AfterAll
    void stop() throws Exception {
        Closer.closeAll(aclByAlice, aclByBob, labelsByAlice, acl, labels, alice, bob, superuser, server);
    }

    @TestFactory
    @Order(1)
    List<DynamicTest> eachFeatureCopiesWhatHBasesCodeCopies() {
        FeatureCheck check = new FeatureCheck(server.metricsUri());
        String release = System.getProperty("blockscope.hbase.version");
        return features().stream()
                .map(f -> DynamicTest.dynamicTest(f.name, () -> measured.add(check.measure(f, release))))
                .collect(Collectors.toList());
    }

    @Test
    @Order(2)
    void theDocsCarryTheTableThisRunProduced() throws IOException {
        assertEquals(features().size(), measured.size(), "every feature measured");
        new FeatureReport(getClass(), System.getProperty("blockscope.hbase.version"), measured)
                .check(Path.of(System.getProperty("blockscope.dashboards")).getParent());
    }

    /**
     * In page order the first feature naming a site gives that site's advice: the labels' filter is
     * met alone first, then with the AccessController's.
     */
    private List<HBaseFeature> features() {
        String labelFilter = "VisibilityLabelFilter.filterCell: getFamilyArray() and getQualifierArray() of each row's"
                + " first cell, on every scan of a user table once the VisibilityController is loaded";
        String withoutLabels = "none in HBase while the VisibilityController is loaded (it filters every scan of a"
                + " user table, labelled or not); a RegionServer that serves no labels should not load it";
        List<HBaseFeature> all = new ArrayList<>();
        all.add(HBaseFeature.of(
                        "scan with visibility labels (the user has the label)",
                        labelFilter + "; the expression is read in place (DefaultVisibilityLabelServiceImpl:"
                                + " TagUtil.readVIntValuePart)")
                .copies("family", FAMILY_BYTES)
                .copies("qualifier", QUALIFIER_BYTES)
                .over(ROWS)
                .site(LABEL_FILTER)
                .instead(withoutLabels)
                .run(() -> labelsByAlice.scanCells(new Scan().setAuthorizations(new Authorizations(LABEL)))));
        all.add(HBaseFeature.of(
                        "scan of cells with ACLs, the user has table READ",
                        "AccessController.internalPreRead: READ granted, no AccessControlFilter, no cell ACL read; "
                                + labelFilter)
                .copies("family", FAMILY_BYTES)
                .copies("qualifier", QUALIFIER_BYTES)
                .over(ROWS)
                .site(LABEL_FILTER)
                .instead(withoutLabels)
                .run(() -> aclByBob.scanCells(new Scan())));
        all.add(HBaseFeature.of(
                        "scan with cell ACLs, the user has no table READ",
                        "AccessControlFilter.filterCell (CHECK_CELL_DEFAULT): getFamilyArray(), getQualifierArray()"
                                + " each row, CellUtil.cloneFamily/cloneQualifier each cell, then"
                                + " PermissionStorage.getCellPermissionsForUser: Tag.cloneValue(the ACL tag); plus "
                                + labelFilter)
                .copies("family", 3 * FAMILY_BYTES)
                .copies("qualifier", 3 * QUALIFIER_BYTES)
                .copies("tags", aclTagBytes)
                .over(ROWS)
                .site(SECURITY)
                .instead("a READ grant on the table (AccessControlClient.grant), or on the family for scans that"
                        + " name it: the AccessController then adds no filter and reads no cell ACL")
                .run(() -> aclByAlice.scanCells(new Scan())));
        return all;
    }

    private static Put grantAlice(Put put) {
        return put.setACL("alice", new Permission(Permission.Action.READ));
    }

    /** A connection as {@code name}: simple authentication sends the name, the server trusts it. */
    private Connection connectionAs(String name) throws IOException {
        return ConnectionFactory.createConnection(
                server.clientConfiguration(), User.create(UserGroupInformation.createRemoteUser(name)));
    }

    /** hbase:acl and hbase:labels, which the master creates once the coprocessors are in. */
    private void awaitSystemTables() throws IOException {
        Instant deadline = Instant.now().plusSeconds(120);
        try (Admin admin = superuser.getAdmin()) {
            while (!(admin.tableExists(TableName.valueOf("hbase:acl"))
                    && admin.tableExists(TableName.valueOf("hbase:labels")))) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("no hbase:acl or hbase:labels; log tail:\n" + server.logTail(60));
                }
                RegionServerProcess.sleep(500);
            }
        }
    }

    /** A call to the VisibilityController's endpoint. */
    private interface LabelsCall {
        VisibilityLabelsResponse call() throws Throwable;
    }

    /** Makes {@code call} again while the VisibilityController refuses it (not ready, label unknown yet). */
    private void untilDone(String what, LabelsCall call) throws Throwable {
        Instant deadline = Instant.now().plusSeconds(120);
        while (true) {
            String refused;
            try {
                RegionActionResult result = call.call().getResult(0);
                // an earlier attempt that timed out on the client may have added the label
                if (!result.hasException() || result.getException().getName().endsWith("LabelAlreadyExistsException")) {
                    return;
                }
                refused = result.getException().getName();
            } catch (IOException e) {
                refused = e.toString();
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(what + " failed: " + refused);
            }
            RegionServerProcess.sleep(500);
        }
    }

    private void awaitAllRows(FeatureTable table, Scan scan) throws IOException {
        Instant deadline = Instant.now().plusSeconds(120);
        int cells;
        while ((cells = table.scanCells(scan)) != ROWS) {
            assertFalse(Instant.now().isAfter(deadline), "the grant never reached the RegionServer: " + cells);
            RegionServerProcess.sleep(500);
        }
    }
}
