package org.copydesk.archfixture.cli;

/** May print; breaks wall 3 (JDBC) and wall 4 (JavaFX). */
public final class PrintCommand {
    public void run(java.sql.Connection connection) {
        System.out.println("ok");
        javafx.application.Platform.exit();
    }
}
