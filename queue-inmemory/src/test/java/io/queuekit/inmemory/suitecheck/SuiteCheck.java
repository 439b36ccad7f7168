package io.queuekit.inmemory.suitecheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A test of the contract suite itself: each broken copy of the in-memory transport in
 * {@link Mutants} breaks one promise, and the whole suite run against it must fail, among others
 * in the test written for that promise. Run by the build in an execution of its own, with
 * {@code queuekit.tck.patience} short, since a broken transport makes the suite wait for what
 * never comes. A subclass names its broken copies and the tests of each one's promise in a
 * static {@code mutants()}. The copies run at once (four at a time, as the module's test classes
 * do): each run mostly waits out the short patience.
 */
abstract class SuiteCheck {

    @ParameterizedTest(name = "{0}")
    @Execution(ExecutionMode.CONCURRENT)
    @org.junit.jupiter.params.provider.MethodSource("mutants")
    @DisplayName("the contract suite fails for a transport that breaks a promise")
    void theSuiteFails_inTheTestsOfTheBrokenPromise(Class<?> mutant, List<String> testsOfThePromise) {
        Map<TestExecutionResult.Status, Set<String>> ended = run(mutant);
        Set<String> failed = ended.get(TestExecutionResult.Status.FAILED);

        System.out.println("contract suite against " + mutant.getSimpleName() + ": " + failed.size() + " tests failed, "
                + ended.get(TestExecutionResult.Status.ABORTED).size() + " skipped: " + failed);
        // failed, not merely skipped: a test that does not apply to the copy's semantics is skipped
        assertThat(failed)
                .as("tests that failed against %s", mutant.getSimpleName())
                .containsAll(testsOfThePromise);
    }

    /**
     * Runs every test of {@code testClass} (its nested classes too); returns the methods' names by
     * how they ended, failed or aborted (skipped by an assumption). A method that ends both ways
     * (a parameterized one) is in both.
     */
    private static Map<TestExecutionResult.Status, Set<String>> run(Class<?> testClass) {
        Map<TestExecutionResult.Status, Set<String>> ended = new EnumMap<>(TestExecutionResult.Status.class);
        for (TestExecutionResult.Status s : TestExecutionResult.Status.values()) {
            ended.put(s, new TreeSet<>());
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(testClass))
                .build();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL
                        && id.getSource().orElse(null) instanceof MethodSource m) {
                    ended.get(result.getStatus()).add(m.getMethodName());
                }
            }
        });
        return ended;
    }
}
