package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.FilterReply;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The logging configuration the app and the commands ship with (src/main/resources/logback.xml). */
class CliLoggingTest {

    @Test
    void theTerminalGetsWarningsAndErrorsButNoInfoLines() throws Exception {
        // before: every command printed INFO log lines on the terminal
        URL shipped = CliLoggingTest.class.getResource("/logback.xml");
        assertThat(shipped).isNotNull();
        LoggerContext context = new LoggerContext();
        try {
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(shipped);
            Logger copydesk = context.getLogger("org.copydesk.db.EmbeddedServer");
            List<Appender<ILoggingEvent>> consoles = new ArrayList<>();
            context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().forEachRemaining(a -> {
                if (a instanceof ConsoleAppender) {
                    consoles.add(a);
                }
            });
            assertThat(consoles).isNotEmpty();
            for (Appender<ILoggingEvent> console : consoles) {
                assertThat(console.getFilterChainDecision(event(copydesk, Level.INFO))).as("INFO on the terminal")
                        .isEqualTo(FilterReply.DENY);
                assertThat(console.getFilterChainDecision(event(copydesk, Level.WARN))).as("WARN on the terminal")
                        .isNotEqualTo(FilterReply.DENY);
            }
        } finally {
            context.stop();
        }
    }

    private static LoggingEvent event(Logger logger, Level level) {
        return new LoggingEvent(Logger.class.getName(), logger, level, "Started the embedded server on port 3307", null, null);
    }
}
