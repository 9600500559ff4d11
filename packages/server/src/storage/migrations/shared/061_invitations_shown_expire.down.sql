-- The links shown before cannot be trusted again: nothing is undone.
SELECT 1;
