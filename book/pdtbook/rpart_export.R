# Grow a tree with R's rpart and write it out for pdtbook.rpart.
#
# Usage: Rscript rpart_export.R INPUT.csv OUTDIR MINSPLIT MINBUCKET [METHOD]
#
# INPUT.csv has numeric feature columns and a last column `y`: class codes 0..K-1 for METHOD
# "class" (the default), real targets for METHOD "anova" (a regression tree). The tree
# is grown to cp = 0 (no pre-pruning by complexity), without cross-validation, competitor or
# surrogate splits. Three files are written to OUTDIR:
#   frame.csv    one row per node in rpart's order (preorder): node number (root 1, children
#                2n and 2n + 1), split variable ("<leaf>" at leaves), n, dev (misclassified
#                examples; for anova the sum of squared deviations from the node's mean),
#                yval (for anova the node's mean), complexity (rpart's cp, scaled by the
#                root's risk) and, for "class", the class counts c0..c{K-1} from yval2;
#   splits.csv   one row per internal node, in the same order: variable, ncat (-1: values
#                below `index` go to child 2n; +1: values at or above it do) and index;
#   cptable.csv  rpart's cp table: CP, nsplit, rel error.
suppressPackageStartupMessages(library(rpart))

args <- commandArgs(trailingOnly = TRUE)
if (!(length(args) %in% c(4, 5))) {
  stop("usage: Rscript rpart_export.R INPUT.csv OUTDIR MINSPLIT MINBUCKET [METHOD]")
}
method <- if (length(args) == 5) args[5] else "class"
data <- read.csv(args[1])
if (method == "class") data$y <- factor(data$y)
control <- rpart.control(cp = 0, xval = 0, maxcompete = 0, maxsurrogate = 0,
                         minsplit = as.integer(args[3]), minbucket = as.integer(args[4]))
fit <- rpart(y ~ ., data = data, method = method, control = control)

frame <- fit$frame
out <- data.frame(node = as.integer(row.names(frame)), var = as.character(frame$var),
                  n = frame$n, dev = frame$dev, yval = frame$yval,
                  complexity = frame$complexity)
if (method == "class") {
  k <- nlevels(data$y)
  counts <- frame$yval2[, 2:(k + 1), drop = FALSE]
  colnames(counts) <- paste0("c", levels(data$y))
  out <- data.frame(out, counts)
}
write.csv(out, file.path(args[2], "frame.csv"), row.names = FALSE)

splits <- if (is.null(fit$splits)) {
  data.frame(var = character(0), ncat = integer(0), index = numeric(0))
} else {
  data.frame(var = row.names(fit$splits), ncat = fit$splits[, "ncat"],
             index = fit$splits[, "index"])
}
write.csv(splits, file.path(args[2], "splits.csv"), row.names = FALSE)
write.csv(as.data.frame(fit$cptable), file.path(args[2], "cptable.csv"), row.names = FALSE)
