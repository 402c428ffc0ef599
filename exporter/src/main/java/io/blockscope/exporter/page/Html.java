package io.blockscope.exporter.page;

/**
 * HTML escaping for everything the page prints that came from outside: label values are whatever
 * the host's class and method names are (a class may be called {@code <script>}), so no value
 * reaches the page unescaped, in text or in an attribute.
 */
final class Html {

    private Html() {}

    /** {@code text} safe inside element content and inside double- or single-quoted attributes. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = replacement(c);
            if (replacement != null) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                out.append(replacement);
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    private static String replacement(char c) {
        switch (c) {
            case '&':
                return "&amp;";
            case '<':
                return "&lt;";
            case '>':
                return "&gt;";
            case '"':
                return "&quot;";
            case '\'':
                return "&#39;";
            default:
                // Control characters other than tab and newline have no business on the page.
                return c < 0x20 && c != '\t' && c != '\n' ? "\uFFFD" : null;
        }
    }
}
