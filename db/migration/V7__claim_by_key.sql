-- Release means "not me": an article an editor gives back is not handed to them again by their next
-- claims for 10 minutes, or until someone else has claimed it. release_article sets who passed it
-- over and until when; claim_articles passes over it and clears both when it takes the article.

ALTER TABLE article ADD COLUMN passed_by VARCHAR(64) NULL;
ALTER TABLE article ADD COLUMN passed_until DATETIME(6) NULL;
