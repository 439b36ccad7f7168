package io.queuekit.cli;

import java.io.Console;

/**
 * The operator's terminal, when there is one: where a destructive command asks before it acts. A
 * command whose standard input or output is redirected (a script, a pipe, CI) has none, and must
 * be told {@code --yes} instead.
 */
interface Terminal {
    /** No terminal to ask. */
    Terminal NONE = new Terminal() {
        @Override
        public boolean interactive() {
            return false;
        }

        @Override
        public String readLine(String prompt) {
            return null;
        }
    };

    /** Whether a person can be asked. */
    boolean interactive();

    /** Shows {@code prompt} and reads one line; null at the end of input. */
    String readLine(String prompt);

    /** The JVM's console: present only when standard input and output are both a terminal. */
    // on Java 17 to 21 null is how the JVM says "not a terminal"; on 22 and later the console is never null,
    // and this treats a console as a terminal as before (isTerminal(), which would tell, is Java 22 API)
    @SuppressWarnings("SystemConsoleNull")
    static Terminal system() {
        Console console = System.console();
        if (console == null) {
            return NONE;
        }
        return new Terminal() {
            @Override
            public boolean interactive() {
                return true;
            }

            @Override
            public String readLine(String prompt) {
                return console.readLine("%s", prompt);
            }
        };
    }
}
