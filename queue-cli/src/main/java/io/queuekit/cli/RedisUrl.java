package io.queuekit.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * Where a command finds Redis, and how a Redis URL is checked and shown. The URL comes from
 * {@code --redis URL}, else from the file named by {@code --redis-file PATH}, else from the
 * {@code REDIS_URL} environment variable, so that a URL holding a password need not be an
 * argument that other users see in {@code ps} and that the shell keeps in its history. A URL is
 * checked whole before any connection is tried, and no message shows its user or password.
 */
final class RedisUrl {
    static final String ENV = "REDIS_URL";
    private static final String FORM = "redis://[user:password@]host:port[/db], or rediss:// for TLS";
    private static final int MAX_FILE_BYTES = 4096;
    /** A scheme, then everything up to the last @ before a space or quote: the user info of a URL. */
    private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^\\s'\"<>\\[\\]]*@");

    private RedisUrl() {}

    /** {@code --redis} and {@code --redis-file}. */
    static final class Options {
        @Option(
                names = "--redis",
                paramLabel = "URL",
                description = {
                    FORM + ".",
                    "Also read from --redis-file or REDIS_URL, which keep a password out of ps and the shell history."
                })
        String url;

        @Option(names = "--redis-file", paramLabel = "PATH", description = "A file holding the Redis URL on one line.")
        Path file;

        /** The URL given by an option or by {@code REDIS_URL}; null when none was. */
        URI given(Main.Context ctx) {
            if (url != null && file != null) {
                throw new Main.Usage("give --redis or --redis-file, not both");
            }
            if (url != null) {
                return parse(url, "--redis");
            }
            if (file != null) {
                String text = read(file);
                ctx.secrets().remember(text);
                return parse(text, "--redis-file " + file);
            }
            String env = ctx.env().get(ENV);
            return env == null || env.isBlank() ? null : parse(env.strip(), ENV);
        }

        /** Like {@link #given}, but one of the three ways is needed. */
        URI required(Main.Context ctx) {
            URI uri = given(ctx);
            if (uri == null) {
                throw new Main.Usage("no Redis URL: give --redis URL or --redis-file PATH, or set " + ENV);
            }
            return uri;
        }
    }

    private static String read(Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new Main.Usage("--redis-file " + file + " is larger than a Redis URL can be");
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (text.isEmpty() || text.contains("\n")) {
                throw new Main.Usage("--redis-file " + file + " must hold one line, the Redis URL");
            }
            return text;
        } catch (NoSuchFileException e) {
            throw new Main.Usage("cannot read --redis-file " + file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new Main.Usage("cannot read --redis-file " + file + ": permission denied");
        } catch (IOException e) {
            throw new Main.Usage("cannot read --redis-file " + file + ": " + e.getMessage());
        }
    }

    /**
     * A checked Redis URL: scheme redis or rediss, a host, a port, and at most a database number.
     *
     * @param origin where the text came from, for the message ({@code --redis}, {@code REDIS_URL})
     * @throws Main.Usage saying what is wrong, with the URL's user info hidden
     */
    static URI parse(String text, String origin) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw invalid(text, origin, e.getReason());
        }
        if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
            throw invalid(text, origin, "expected " + FORM);
        }
        if (uri.getHost() == null) {
            String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
            throw invalid(
                    text,
                    origin,
                    "no host"
                            + (authority.indexOf('@') != authority.lastIndexOf('@')
                                    ? " (write an @ in a user or password as %40)"
                                    : "")
                            + "; expected " + FORM);
        }
        if (uri.getPort() == -1) {
            throw invalid(text, origin, "no port; expected " + FORM);
        }
        if (uri.getPort() < 1 || uri.getPort() > 65535) {
            throw invalid(text, origin, "port must be 1 to 65535: " + uri.getPort());
        }
        if (uri.getRawUserInfo() != null && !uri.getRawUserInfo().contains(":")) {
            throw invalid(text, origin, "the password must follow a colon (user:password@ or :password@)");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,9}")) {
            throw invalid(text, origin, "the database must be a number: '" + Text.escape(path.substring(1)) + "'");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw invalid(text, origin, "nothing may follow the database; expected " + FORM);
        }
        return uri;
    }

    private static Main.Usage invalid(String text, String origin, String why) {
        return new Main.Usage("invalid Redis URL '" + Text.escape(hideUserInfo(text)) + "'"
                + (origin.equals("--redis") ? "" : " (from " + origin + ")") + ": " + why);
    }

    /** {@code scheme://***@host:port[/db]}: the URL as messages show it. */
    static String redacted(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().equals("/") ? "" : uri.getRawPath();
        return uri.getScheme() + "://" + (uri.getRawUserInfo() != null ? "***@" : "") + uri.getHost()
                + (uri.getPort() > 0 ? ":" + uri.getPort() : "") + path;
    }

    /** One URL's text with everything between the scheme and its last @ hidden, however malformed. */
    static String hideUserInfo(String url) {
        int at = url.lastIndexOf('@');
        if (at < 0) {
            return url;
        }
        int scheme = url.indexOf("://");
        int from = scheme >= 0 && scheme < at ? scheme + 3 : 0;
        return url.substring(0, from) + "***" + url.substring(at);
    }

    /**
     * The user info of every Redis URL a run has seen, so that no message shows it, whatever
     * printed it (a parser's complaint, a driver's exception).
     */
    static final class Secrets {
        private final Set<String> known = ConcurrentHashMap.newKeySet();

        /** Notes the user info of {@code text} if it looks like a URL that has one. */
        void remember(String text) {
            if (text == null || text.indexOf('@') < 0) {
                return;
            }
            int at = text.lastIndexOf('@');
            int scheme = text.indexOf("://");
            String userInfo = text.substring(scheme >= 0 && scheme < at ? scheme + 3 : 0, at);
            add(userInfo);
            try {
                String decoded = URLDecoder.decode(userInfo.replace("+", "%2B"), StandardCharsets.UTF_8);
                add(decoded);
                int colon = decoded.indexOf(':');
                add(colon >= 0 ? decoded.substring(colon + 1) : decoded);
            } catch (IllegalArgumentException e) {
                // not percent-encoded as a URL would be: the raw form is noted already
            }
        }

        private void add(String secret) {
            if (!secret.isEmpty()) {
                known.add(secret);
            }
        }

        /** {@code message} with every remembered secret, and the user info of any URL in it, hidden. */
        String hide(String message) {
            String m = message;
            for (String s :
                    known.stream().sorted((a, b) -> b.length() - a.length()).toList()) {
                m = m.replace(s, "***");
            }
            Matcher matcher = USER_INFO.matcher(m);
            return matcher.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + "***@"));
        }
    }
}
