package org.copydesk.archfixture.review;

import org.copydesk.AllowedBecause;

/** Prints only from an annotated method, one of them inside a lambda. */
public final class QuietService {
    @AllowedBecause("fixture: a method-level exception, reached through a lambda")
    public void exemptPrint() {
        Runnable r = () -> System.err.println("allowed");
        r.run();
    }
}
