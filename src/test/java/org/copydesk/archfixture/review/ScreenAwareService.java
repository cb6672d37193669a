package org.copydesk.archfixture.review;

/** Breaks wall 2 (review knows JavaFX) and wall 6 (prints instead of logging). */
public final class ScreenAwareService {
    public Object label() {
        return new javafx.scene.control.Label("x");
    }

    public void shout(Exception e) {
        System.out.println("hello");
        e.printStackTrace();
    }
}
