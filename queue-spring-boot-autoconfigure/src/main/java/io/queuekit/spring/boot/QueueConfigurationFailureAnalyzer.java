package io.queuekit.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints a {@link QueueConfigurationException} as Spring Boot's "APPLICATION FAILED TO START" report. */
class QueueConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<QueueConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, QueueConfigurationException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
