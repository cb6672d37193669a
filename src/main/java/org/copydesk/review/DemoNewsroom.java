package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_STAGE_REQUEST;
import static org.copydesk.db.schema.Tables.DESK;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.copydesk.AllowedBecause;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A believable newsroom for a first start on an empty embedded database of the desktop app (or
 * {@code copydesk server --demo}): five desks, four editors, one supervisor, one admin, and a few
 * hundred articles, some embargoed until later today; never on a team's server unasked.
 * Generated from a fixed seed so screenshots and demos look the same every time.
 */
public final class DemoNewsroom {

    private static final Logger log = LoggerFactory.getLogger(DemoNewsroom.class);

    /** How many articles the demo loads. */
    public static final int ARTICLES = 320;

    private static final String[][] DESKS = {
            {"news", "News"}, {"sport", "Sport"}, {"culture", "Culture"}, {"business", "Business"}, {"legal", "Legal"}};

    private static final String[] PLACES = {"Harbour district", "the city council", "Northfield", "the regional hospital",
            "the university", "Riverside", "the airport", "the old mill", "Eastgate", "the central station", "the port authority",
            "the county court", "Lakeside", "the national museum", "the stadium"};
    private static final String[][] SUBJECTS = {
            {"Council approves new cycle lanes for", "Flooding closes roads around", "Residents protest plans for",
                    "Power cut hits thousands in", "New school to open near", "Bus strike disrupts travel to",
                    "Fire crews tackle blaze at", "Police appeal for witnesses after incident at"},
            {"Late winner sends United top after clash at", "Marathon record falls on course through",
                    "Coach defends tactics after defeat at", "Teenage swimmer qualifies at", "Derby tickets sell out for match at",
                    "Injury blow for captain ahead of final at"},
            {"Festival line-up announced for", "Restored organ returns to", "Debut novel set in", "Theatre season opens at",
                    "Photography exhibition captures life in", "Orchestra plans free concert at"},
            {"Factory expansion brings 200 jobs to", "Start-up raises funds after launch in", "Shop closures mount in",
                    "Housing prices cool in", "Port traffic hits record at", "Bakery chain opens tenth branch in"},
            {"Judge adjourns planning case over", "Inquest opens into death at", "Tribunal hears claims against employer in",
                    "Appeal court rules on noise dispute in", "Licensing hearing set for bar in"}};
    private static final String[] FIRST = {"Maya", "Tom", "Priya", "Jonas", "Aisha", "Lukas", "Sofia", "Daniel", "Elena", "Omar",
            "Grace", "Henrik"};
    private static final String[] LAST = {"Berg", "Okoye", "Lindahl", "Costa", "Nakamura", "Fischer", "Reid", "Haddad",
            "Novak", "Moreau"};
    private static final String[] SENTENCES = {
            "Officials said the decision followed months of consultation with local groups.",
            "Witnesses described a tense scene as crowds gathered in the afternoon.",
            "A spokesperson declined to comment further until the review is complete.",
            "The figures, published on Tuesday, show a sharp rise compared with last year.",
            "Campaigners welcomed the move but warned that more needed to be done.",
            "Several people were treated at the scene for minor injuries.",
            "The plans will be discussed again at a public meeting next month.",
            "Critics argue that the cost has been underestimated from the start.",
            "Supporters say the project will bring new life to the area.",
            "The final report is expected before the end of the year.",
            "Local businesses said they had not been told about the changes in advance.",
            "Quotes in this paragraph need checking against the recording."};

    private DemoNewsroom() {
    }

    /** Loads the demo newsroom if the database has no desks yet. Returns true if it did. */
    public static boolean loadIfEmpty(DSLContext dsl, Newsroom newsroom) {
        if (dsl.fetchExists(DESK)) {
            return false;
        }
        log.info("Empty database: loading the demo newsroom ({} articles)", ARTICLES);
        for (String[] desk : DESKS) {
            newsroom.addDesk(desk[0], desk[1], Duration.ofMinutes(30));
        }
        newsroom.addEditor("ann", "Ann Kowalski", Role.EDITOR, 5, List.of("news", "sport"));
        newsroom.addEditor("bob", "Bob Okafor", Role.EDITOR, 5, List.of("sport", "culture"));
        newsroom.addEditor("cat", "Cat Moreau", Role.EDITOR, 4, List.of("culture", "legal"));
        newsroom.addEditor("dan", "Dan Ito", Role.EDITOR, 5, List.of("news", "business", "legal"));
        newsroom.addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news", "sport", "culture", "business", "legal"));
        newsroom.addEditor("admin", "Copydesk Admin", Role.ADMIN, 0, List.of());
        newsReviewChain(ReviewStages.over(dsl));
        insertArticles(dsl, new Random(20261121L));
        askForLegal(dsl);
        return true;
    }

    /** A quarter of the news asks for Legal from the start, as an import that flags them would. */
    @AllowedBecause("the demo's articles on an empty embedded database, written by the server's owner before anyone signs in")
    private static void askForLegal(DSLContext dsl) {
        dsl.insertInto(ARTICLE_STAGE_REQUEST, ARTICLE_STAGE_REQUEST.ARTICLE_ID, ARTICLE_STAGE_REQUEST.STAGE_ID,
                        ARTICLE_STAGE_REQUEST.ASKED_BY, ARTICLE_STAGE_REQUEST.ASKED_AT)
                .select(DSL.select(ARTICLE.ID, DSL.val("legal"), DSL.val("admin"), ServerClock.now()).from(ARTICLE)
                        .where(ARTICLE.DESK_ID.eq("news")).and(ARTICLE.ID.mod(4).eq(0L)))
                .execute();
    }

    /**
     * The demo's one desk with a review chain (docs/workflow.md): News goes Copy edit (the desk's
     * editors) → Legal (only when asked; Cat) → Sign-off (four eyes: Dan or Sue signs off what Ann
     * copy-edited). The other desks have one stage, as every desk had before stages.
     */
    static void newsReviewChain(ReviewStages stages) {
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, Duration.ofMinutes(60), true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, Duration.ofMinutes(15), false, true, false));
        stages.setTakers(null, "news", "legal", List.of("cat"));
    }

    /** The demo password of a demo account: its name followed by "-demo" (e.g. ann-demo). */
    public static String demoPassword(String editorId) {
        return editorId + "-demo";
    }

    /** The demo people, who get database accounts with demo passwords on the embedded server. */
    public static final List<String> DEMO_ACCOUNTS = List.of("ann", "bob", "cat", "dan", "sue", "admin");

    /**
     * The single-computer demo: on an empty embedded database, loads the demo newsroom and gives its
     * people accounts with the published demo passwords, once. An account an admin later drops is
     * not made again, and a database that already has a newsroom gets no demo accounts. Accounts
     * made by an earlier version get this version's grants. Returns whether the demo was loaded.
     */
    public static boolean prepareSingleComputerDemo(DSLContext dsl, Newsroom newsroom) {
        AccountAdministration accounts = new AccountAdministration(dsl);
        accounts.dropAnonymousAccounts();
        if (loadIfEmpty(dsl, newsroom)) {
            createDemoAccounts(dsl);
            return true;
        }
        accounts.keepEmbeddedAccountsCurrent();
        return false;
    }

    /** As {@link #prepareSingleComputerDemo(DSLContext, Newsroom)}, on a database a tool opened itself ({@code copydesk server --demo}). */
    public static boolean prepareSingleComputerDemo(org.copydesk.db.Database database) {
        return prepareSingleComputerDemo(database.dsl(), new Newsroom(database.dsl()));
    }

    /**
     * What the desktop app does on the embedded server as its administrator: the single-computer
     * demo on a server of its own, but never on a team's server ({@code copydesk server}, which
     * loads the demo only when asked with {@code --demo}); there it only keeps accounts current.
     */
    public static void prepareEmbedded(DSLContext dsl, Newsroom newsroom, boolean teamServer) {
        if (teamServer) {
            new AccountAdministration(dsl).keepEmbeddedAccountsCurrent();
        } else {
            prepareSingleComputerDemo(dsl, newsroom);
        }
    }

    /** The demo articles' external ids: {@code demo-0001} to {@code demo-0320}. */
    public static boolean isDemoArticle(String externalId) {
        return externalId != null && externalId.matches("demo-\\d{4}")
                && Integer.parseInt(externalId.substring(5)) >= 1 && Integer.parseInt(externalId.substring(5)) <= ARTICLES;
    }

    /**
     * The demo accounts that still sign in with their published demo password on the server at
     * {@code url} (tried, not looked up: the check is the same whatever the server stores).
     */
    public static List<String> accountsStillOnDemoPasswords(String url) {
        List<String> open = new ArrayList<>();
        for (String id : DEMO_ACCOUNTS) {
            Properties p = new Properties();
            p.setProperty("user", id);
            p.setProperty("password", demoPassword(id));
            p.setProperty("connectTimeout", "5000");
            try (Connection ignored = DriverManager.getConnection(url, p)) {
                open.add(id);
            } catch (SQLException e) {
                // refused: not a demo password (or no such account)
            }
        }
        return open;
    }

    /** Gives every demo person an account with the demo password (replacing its password and grants). */
    public static void createDemoAccounts(DSLContext dsl) {
        AccountAdministration accounts = new AccountAdministration(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        for (String id : DEMO_ACCOUNTS) {
            newsroom.editor(id).ifPresent(e -> accounts.createAccount(id, demoPassword(id).toCharArray()));
        }
    }

    @AllowedBecause("the demo's articles on an empty embedded database, written by the server's owner before anyone signs in")
    private static void insertArticles(DSLContext dsl, Random random) {
        var insert = dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BYLINE, ARTICLE.BODY,
                ARTICLE.PRIORITY, ARTICLE.AVAILABLE_AT);
        for (int i = 0; i < ARTICLES; i++) {
            int deskIndex = i % DESKS.length;
            String[] subjects = SUBJECTS[deskIndex];
            String title = subjects[random.nextInt(subjects.length)] + " " + PLACES[random.nextInt(PLACES.length)];
            String byline = FIRST[random.nextInt(FIRST.length)] + " " + LAST[random.nextInt(LAST.length)];
            int priority = switch (random.nextInt(10)) {
                case 0 -> 1;
                case 1, 2 -> 2;
                case 8 -> 4;
                case 9 -> 5;
                default -> 3;
            };
            // most waited a while already; every 25th is embargoed until later today
            Duration offset = i % 25 == 7 ? Duration.ofMinutes(30 + random.nextInt(8 * 60))
                    : Duration.ofMinutes(-5 - random.nextInt(600));
            insert = insert.values(DSL.val(String.format("demo-%04d", i + 1)), DSL.val(DESKS[deskIndex][0]), DSL.val(title),
                    DSL.val(byline), DSL.val(body(random, title)), DSL.val(priority), ServerClock.nowPlus(offset));
        }
        insert.execute();
    }

    private static String body(Random random, String title) {
        List<String> paragraphs = new ArrayList<>();
        paragraphs.add(title + ". " + SENTENCES[random.nextInt(SENTENCES.length)]);
        int count = 3 + random.nextInt(6);
        for (int p = 0; p < count; p++) {
            StringBuilder paragraph = new StringBuilder();
            int sentences = 2 + random.nextInt(4);
            for (int s = 0; s < sentences; s++) {
                if (s > 0) {
                    paragraph.append(' ');
                }
                paragraph.append(SENTENCES[random.nextInt(SENTENCES.length)]);
            }
            paragraphs.add(paragraph.toString());
        }
        return String.join("\n\n", paragraphs);
    }
}
