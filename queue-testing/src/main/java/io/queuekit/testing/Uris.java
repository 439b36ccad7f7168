package io.queuekit.testing;

import java.net.URI;
import java.net.URISyntaxException;

/** Redis URL handling: explicit ports so clients need no defaults, and passwords kept out of logs. */
final class Uris {

    static final int DEFAULT_PORT = 6379;

    private Uris() {}

    /** Parses {@code redis://}, {@code rediss://} or a bare {@code host:port}, filling in port 6379. */
    static URI normalize(String url) {
        String text = url.contains("://") ? url : "redis://" + url;
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a Redis URL: '" + redact(url) + "'", e);
        }
        String scheme = uri.getScheme();
        if (!"redis".equalsIgnoreCase(scheme) && !"rediss".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("a Redis URL starts with redis:// or rediss://: '" + redact(url) + "'");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("a Redis URL needs a host: '" + redact(url) + "'");
        }
        if (uri.getPort() != -1) {
            return uri;
        }
        try {
            return new URI(
                    uri.getScheme(),
                    uri.getRawUserInfo() == null ? null : uri.getUserInfo(),
                    uri.getHost(),
                    DEFAULT_PORT,
                    uri.getPath(),
                    uri.getQuery(),
                    uri.getFragment());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a Redis URL: '" + redact(url) + "'", e);
        }
    }

    /** A local URI, with the password when the server requires one. */
    static String local(String host, int port, String password) {
        try {
            return new URI("redis", password == null ? null : ":" + password, host, port, null, null, null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The URL with any user info replaced, for logs and messages. */
    static String redact(String url) {
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        if (scheme < 0 || at < scheme) {
            return url;
        }
        return url.substring(0, scheme + 3) + "***@" + url.substring(at + 1);
    }
}
