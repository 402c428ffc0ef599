package io.blockscope.agent.record;

/**
 * The key of a copy site and its owner (the table and user ids of the bootstrap's {@code Context}) in
 * {@link Recorder#copySiteOwners()}: the ids first, so that the table's cut of a long site keeps
 * them. Only sampled copies make one, on the path that already resolves the site.
 */
public final class CopySiteOwners {

    private CopySiteOwners() {}

    /** A parsed key; {@code site} is {@link SiteTable#OTHER} for the table's overflow row. */
    public static final class Owner {
        public final String site;
        /** The table's id, or -1 for the overflow row. */
        public final int table;
        /** The user's id, or -1 for the overflow row. */
        public final int user;

        Owner(String site, int table, int user) {
            this.site = site;
            this.table = table;
            this.user = user;
        }
    }

    static String key(String site, int table, int user) {
        return table + " " + user + " " + site;
    }

    public static Owner parse(String key) {
        int first = key.indexOf(' ');
        int second = first < 0 ? -1 : key.indexOf(' ', first + 1);
        if (second < 0) {
            return new Owner(key, -1, -1); // the overflow row: SiteTable.OTHER
        }
        return new Owner(
                key.substring(second + 1),
                Integer.parseInt(key, 0, first, 10),
                Integer.parseInt(key, first + 1, second, 10));
    }
}
