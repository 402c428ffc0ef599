package io.blockscope.hbasers;

/** The findings on 2.4.18: its finding classes differ from 2.6.4's in comments, style and lines only. */
class RegionServerFindings24Test extends OlderReleaseFindings {

    static final String RELEASE = "2.4.18";

    RegionServerFindings24Test() {
        super(RELEASE, RELEASE);
    }
}
