package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sign-in's hint about demo accounts: there only when there are some. A team's server (started
 * by {@code copydesk server}) is embedded too, but has none: its sign-in said "Demo accounts
 * (embedded database only): ." to every person of the newsroom.
 */
class SignInDemoHintTest {

    @Test
    void aServerWithoutDemoAccountsShowsNoHint() {
        assertThat(SignInViewModel.demoHint(List.of())).isEmpty();
    }

    @Test
    void theDesktopsOwnServerNamesItsDemoAccounts() {
        assertThat(SignInViewModel.demoHint(List.of("ann", "bob"))).startsWith("Demo accounts (embedded database only): ann, bob.")
                .contains("ann-demo");
    }
}
