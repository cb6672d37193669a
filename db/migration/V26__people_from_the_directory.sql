-- People who come from the newsroom's directory: `copydesk people sync` creates, updates and
-- suspends only these ('member', or 'left' once they left every configured group or the directory
-- disabled them), never someone an admin added by hand ('none').
ALTER TABLE editor ADD COLUMN directory ENUM('none', 'member', 'left') NOT NULL DEFAULT 'none';
