package org.copydesk.ui.common;

import java.awt.Image;
import java.awt.SystemTray;
import java.awt.Taskbar;
import java.awt.Toolkit;
import java.awt.TrayIcon;
import java.awt.image.BufferedImage;
import java.net.URL;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets the person's attention when the window is not in front: an operating-system notification
 * (through the system tray, where there is one) and taskbar attention (the dock icon bounces, the
 * taskbar button flashes), each only where the platform supports it. JavaFX has neither, so AWT's
 * {@code SystemTray} and {@code Taskbar} do it, on a thread of their own (AWT's start-up is never
 * the FX thread's to wait for). Nothing here ever fails: where nothing is supported the in-window
 * notice, which is always shown, is all there is.
 */
public final class DesktopAttention implements AutoCloseable {

    /** Where an alert goes; {@link #NONE} in tests and where the desktop offers nothing. */
    public interface Alerts {
        void alert(String title, String text);
    }

    public static final Alerts NONE = (title, text) -> { };

    /**
     * Alerts that reach the desktop only while {@code inFront} says the window is not in front: in
     * front, the window's own notice is enough, and a notification would only repeat it.
     */
    public static Consumer<String> whileInBackground(BooleanSupplier inFront,
                                                                      Alerts alerts) {
        return text -> {
            if (!inFront.getAsBoolean()) {
                alerts.alert(Messages.text("common.appName"), text);
            }
        };
    }

    private static final Logger log = LoggerFactory.getLogger(DesktopAttention.class);

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "copydesk-desktop-attention");
        t.setDaemon(true);
        return t;
    });
    private final URL icon;
    private TrayIcon trayIcon;
    private boolean unsupportedLogged;

    /** @param icon the app's icon for the tray (may be null) */
    public DesktopAttention(URL icon) {
        this.icon = icon;
    }

    /** Raises a notification and taskbar attention, in the background; returns at once. */
    public void alert(String title, String text) {
        thread.execute(() -> {
            try {
                notify(title, text);
                requestAttention();
            } catch (Throwable e) { // HeadlessException, UnsupportedOperationException, SecurityException, a missing native library
                if (!unsupportedLogged) {
                    unsupportedLogged = true;
                    log.info("No desktop notifications here ({}); the window's own notices remain", e.toString());
                }
            }
        });
    }

    private void notify(String title, String text) throws Exception {
        if (!SystemTray.isSupported()) {
            return;
        }
        if (trayIcon == null) {
            Image image = icon == null ? new BufferedImage(16, 16, BufferedImage.TYPE_INT_ARGB)
                    : Toolkit.getDefaultToolkit().getImage(icon);
            trayIcon = new TrayIcon(image, Messages.text("common.appName"));
            trayIcon.setImageAutoSize(true);
            SystemTray.getSystemTray().add(trayIcon);
        }
        trayIcon.displayMessage(title, text, TrayIcon.MessageType.WARNING);
    }

    private static void requestAttention() {
        if (Taskbar.isTaskbarSupported() && Taskbar.getTaskbar().isSupported(Taskbar.Feature.USER_ATTENTION)) {
            Taskbar.getTaskbar().requestUserAttention(true, false);
        }
    }

    @Override
    public void close() {
        thread.execute(() -> {
            try {
                if (trayIcon != null) {
                    SystemTray.getSystemTray().remove(trayIcon);
                }
            } catch (Throwable ignored) {
                // leaving: nothing to tell anyone
            }
        });
        thread.shutdown();
    }
}
