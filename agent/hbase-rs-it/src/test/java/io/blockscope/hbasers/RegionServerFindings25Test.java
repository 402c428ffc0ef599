package io.blockscope.hbasers;

/** The findings on 2.5.11 (hadoop3 build): its finding classes are 2.6.4's, byte for byte. */
class RegionServerFindings25Test extends OlderReleaseFindings {

    static final String RELEASE = "2.5.11";

    RegionServerFindings25Test() {
        super(RELEASE, "2.5.11-hadoop3");
    }
}
