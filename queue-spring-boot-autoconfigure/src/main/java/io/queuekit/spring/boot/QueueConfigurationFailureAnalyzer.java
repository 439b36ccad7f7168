package io.queuekit.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Prints a {@link QueueConfigurationException} as Spring Boot's "APPLICATION FAILED TO START" report.
 * Ordered first: the exception may carry a binding failure as its cause, which Boot's own analyzers
 * would otherwise report without the suggestion.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class QueueConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<QueueConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, QueueConfigurationException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
