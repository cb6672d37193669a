package org.copydesk.archfixture.review;

import org.copydesk.AllowedBecause;

/** Crosses walls 2 and 6 with a type-level reason; its nested class is covered too. */
@AllowedBecause("fixture: a type-level exception")
public final class ExemptScreen {
    public Object label() {
        return new javafx.scene.control.Label("x");
    }

    static final class Inner {
        void print() {
            System.err.println("allowed");
        }
    }
}
